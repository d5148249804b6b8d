import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyEvents
import TallySupport

/// Inserts batches into a ClickHouse table over its HTTP interface:
/// `POST /?query=INSERT INTO <db.table> FORMAT JSONEachRow`, gzip body
/// (`enable_http_compression=1`), members the table lacks skipped
/// (`input_format_skip_unknown_fields=1`).
///
/// ClickHouse answers 200 with an empty body when it stored the rows, a 4xx when it cannot parse
/// them (dropped and counted: a retry would fail the same way), a 5xx for its own faults (retried);
/// a 5xx whose body names a parse error is turned into a 400.
/// Pointed at `report serve` (which takes the same path) it gets `api.md`'s answers.
public struct ClickHouseTransport: UploadTransport {
    /// The server, e.g. `http://127.0.0.1:8123`.
    public var baseURL: URL
    /// The table, optionally `database.table`.
    public var table: String
    /// User and password, sent as `X-ClickHouse-User` / `X-ClickHouse-Key`.
    public var credentials: (user: String, password: String)?
    /// Whether `properties` (an object on the wire) is sent as a JSON string, for a `String`
    /// column: ClickHouse 18.16 cannot read an object into one. `report serve` wants the object.
    public var propertiesAsString: Bool
    /// Seconds to wait for an answer.
    public var timeoutSeconds: Double
    /// ClickHouse's 4xx means the rows cannot be parsed: drop them.
    public var clientErrorsDropBatch: Bool { true }
    private let session: URLSession

    /// A transport inserting into `table` at `baseURL`.
    public init(baseURL: URL, table: String, credentials: (user: String, password: String)? = nil,
                propertiesAsString: Bool = true, timeoutSeconds: Double = 30, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.table = table
        self.credentials = credentials
        self.propertiesAsString = propertiesAsString
        self.timeoutSeconds = timeoutSeconds
        self.session = session
    }

    /// The insert URL.
    public var insertURL: URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = components.path.isEmpty ? "/" : components.path
        components.queryItems = [
            URLQueryItem(name: "query", value: "INSERT INTO \(table) FORMAT JSONEachRow"),
            URLQueryItem(name: "enable_http_compression", value: "1"),
            URLQueryItem(name: "input_format_skip_unknown_fields", value: "1"),
        ]
        return components.url!
    }

    /// Sends the batch as gzip JSONEachRow.
    public func send(_ request: UploadRequest) async throws -> UploadResponse {
        var http = URLRequest(url: insertURL, timeoutInterval: timeoutSeconds)
        http.httpMethod = "POST"
        http.httpBody = Data(try Gzip.compress(rows(request.ndjson)))
        http.setValue("gzip", forHTTPHeaderField: "Content-Encoding")
        if let credentials {
            http.setValue(credentials.user, forHTTPHeaderField: "X-ClickHouse-User")
            http.setValue(credentials.password, forHTTPHeaderField: "X-ClickHouse-Key")
        }
        var response = try await HTTPTransport.perform(http, session: session)
        if response.status >= 500, Self.isParseError(response.body) { response.status = 400 }
        return response
    }

    /// ClickHouse's error codes for rows it cannot parse (`CANNOT_PARSE_TEXT`, `…_QUOTED_STRING`,
    /// `…_INPUT_ASSERTION_FAILED`, `…_DATE`, `…_DATETIME`, `…_NUMBER`, `INCORRECT_DATA`).
    static let parseErrorCodes: Set<Int> = [6, 26, 27, 38, 41, 72, 117]

    /// Whether an error body (`Code: 27, e.displayText() = …` on 18.16, `Code: 27. DB::Exception:
    /// …` on current releases) names a parse error, by its code: ClickHouse
    /// 18.16 answers some of those with a 500, which retrying would repeat forever.
    static func isParseError(_ body: [UInt8]) -> Bool {
        let text = String(decoding: body.prefix(16), as: UTF8.self)
        guard text.hasPrefix("Code: "), let code = Int(text.dropFirst(6).prefix { $0.isNumber }) else { return false }
        return parseErrorCodes.contains(code)
    }

    /// The JSONEachRow body: the batch's lines, with `properties` turned into a string when asked.
    public func rows(_ ndjson: [UInt8]) -> [UInt8] {
        guard propertiesAsString else { return ndjson }
        var rows: [UInt8] = []
        rows.reserveCapacity(ndjson.count + ndjson.count / 4)
        for line in NDJSONLines.ranges(in: ndjson) {
            let event = ndjson[line].withUnsafeBytes { try? EventValidator.validate($0).get() }
            if case .observability(var observability) = event {
                observability.propertiesJSON = JSONText.quote(observability.propertiesJSON)
                Event.observability(observability).appendWireJSON(to: &rows)
            } else {
                rows.append(contentsOf: ndjson[line])
            }
            rows.append(0x0A)
        }
        return rows
    }
}
