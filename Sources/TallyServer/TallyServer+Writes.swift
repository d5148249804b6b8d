import Hummingbird
import TallyEvents
import TallyIngest
import TallySQLite
import TallySupport

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
extension TallyServer {
    /// Reads, inflates, splits and validates a body as `report ingest` does, then has the
    /// writer store it and answers per event once it is committed. Nothing is stored when the
    /// body is too large (413), not gzip although it says so, not JSON at all, or not the
    /// endpoint's shape (400).
    func ingest(_ request: Request, label: String, shape: BodyShape) async throws -> WriteAnswer {
        let encoding = request.headers[.contentEncoding]?.lowercased().trimmingCharacters(in: .whitespaces)
        guard encoding == nil || encoding == "" || encoding == "identity" || encoding == "gzip" || encoding == "x-gzip" else {
            throw APIError(status: .unsupportedMediaType, code: "UNSUPPORTED_ENCODING",
                           message: "Content-Encoding must be gzip or identity, got \(JSONText.quote(encoding ?? "")).")
        }
        let limit = configuration.maxBodyBytes
        let raw = try await collect(request.body, limit: limit)
        let saysGzip = encoding == "gzip" || encoding == "x-gzip"
        let chunk = try await threads.runIfActive {
            var body = raw
            if Gzip.isGzip(body) {
                do {
                    guard let inflated = try EventFileReader.gunzip(body, limit: limit, name: label) else { throw Self.tooLarge(limit) }
                    body = inflated
                } catch let error as EventFileError {
                    throw APIError.invalidBody("The gzip body is damaged: \(error).")
                }
            } else if saysGzip {
                throw APIError.invalidBody("Content-Encoding says gzip but the body is not gzip.")
            }
            guard body.contains(where: { !$0.isBlank && $0 != 0x0A }) else { throw APIError.invalidBody("The body is empty.") }
            let validated: ValidatedChunk
            do {
                let reader = try EventFileReader(bytes: body, name: label)
                try shape.check(reader.format)
                validated = try ValidatedChunk(reading: reader, label: label)
            } catch let error as EventFileError {
                throw APIError.invalidBody("The body cannot be read as events: \(error).")
            }
            if !validated.entries.isEmpty, validated.entries.allSatisfy({ if case .failure(let r) = $0.result { r.code == .invalidJSON } else { false } }) {
                throw APIError.invalidBody("The body is not JSON.")
            }
            return validated
        }
        do {
            let outcomes = try await writer.store(chunk)
            metrics.stored(outcomes)
            return WriteAnswer(outcomes)
        } catch is StoreWriter.Stopped {
            throw APIError(status: .serviceUnavailable, code: "SHUTTING_DOWN", message: "The server is shutting down; retry later.")
        }
    }

    /// The request body, at most `limit` bytes (413 beyond, before anything is read further).
    func collect(_ body: RequestBody, limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await buffer in body {
            guard bytes.count + buffer.readableBytes <= limit else { throw Self.tooLarge(limit) }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return bytes
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(status: .contentTooLarge, code: "BODY_TOO_LARGE", message: "The body is over \(limit) bytes (after decompression).")
    }

    /// ClickHouse's `POST /?query=INSERT INTO <table> FORMAT JSONEachRow`: stored as `/events`
    /// stores; success is 200 with an empty body as ClickHouse answers, the counts in
    /// `X-ClickHouse-Summary`. Rejected rows are kept (`report rejected`), not an error: a
    /// ClickHouse-style kit drops the whole batch on a 4xx, which would lose the good rows.
    func clickHouseInsert(_ request: Request) async throws -> Response {
        let parameters = try QueryParameters(request.uri.query)
        guard let statement = try parameters.value("query") else {
            throw APIError.invalidParameter("POST / takes ClickHouse's query=INSERT INTO <table> FORMAT JSONEachRow.")
        }
        guard let insert = ClickHouseInsert(statement) else {
            throw APIError.invalidParameter("Only INSERT INTO <table> FORMAT JSONEachRow is accepted here, got \(JSONText.quote(String(statement.prefix(80)))).")
        }
        let answer = try await ingest(request, label: "POST /?query=INSERT INTO \(insert.table)", shape: .any)
        return Response(status: .ok, headers: [.init("X-ClickHouse-Summary")!: answer.clickHouseSummary, .contentLength: "0"])
    }
}
