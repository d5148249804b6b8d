import Hummingbird
import NIOCore
import TallyQuery
import TallyRender
import TallySQLite
import TallySupport

@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
extension TallyServer {
    /// Every endpoint of `api.md`, counted for `/metrics`, behind CORS, the JSON error shape
    /// and the token check.
    public func router() -> Router<TallyRequestContext> {
        let router = Router(context: TallyRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics, clockNs: configuration.clockNs))
        if !configuration.corsOrigins.isEmpty {
            router.add(middleware: CORSPolicyMiddleware(origins: configuration.corsOrigins))
        }
        router.add(middleware: ErrorJSONMiddleware())
        if !configuration.tokens.isEmpty {
            router.add(middleware: BearerTokenMiddleware(tokens: configuration.tokens))
        }

        router.get("/") { request, _ in self.dashboard.response(to: request) }
        router.get("/openapi.json") { request, _ in self.openAPI.response(to: request) }
        router.get("/healthz") { request, _ in
            let tokens = self.configuration.tokens
            guard tokens.isEmpty || BearerTokenMiddleware<TallyRequestContext>.scopes(of: request, among: tokens)?.contains(.read) == true else {
                return Self.json("{\"status\":\"ok\"}\n", cacheControl: "no-store")
            }
            let body = try await self.health.answer(version: try await self.storeVersion(), nowMs: self.configuration.nowMs(), readers: self.readers)
            return Self.json(body, cacheControl: "no-store")
        }
        router.get("/metrics") { request, _ in try await self.metricsText(request) }

        for definition in ReportCatalog.all {
            guard let endpoint = definition.endpoint else { continue }
            router.get(RouterPath(endpoint.path)) { request, context in
                var path: [String: String] = [:]
                for parameter in definition.parameters where parameter.isPath {
                    path[parameter.name] = try PercentDecoding.pathParameter(context.parameters, parameter.name)
                }
                return try await self.read(request, extra: definition.queryParameters) { parameters in
                    try definition.question(try ReadRequest.arguments(of: definition, query: parameters, path: path))
                }
            }
        }
        router.get("/learning/users") { request, _ in try await self.users(request) }
        router.get("/sql") { request, context in try await self.sql(request, channel: context.channel) }

        router.post("/learning/reading-events/batch") { request, _ in
            Self.json(try await self.ingest(request, label: "POST /learning/reading-events/batch", shape: .batchObject).json)
        }
        router.post("/v1/feedback/batch") { request, _ in
            Self.json(try await self.ingest(request, label: "POST /v1/feedback/batch", shape: .batchArray).json)
        }
        router.post("/events") { request, _ in
            Self.json(try await self.ingest(request, label: "POST /events", shape: .any).json)
        }
        router.post("/") { request, _ in try await self.clickHouseInsert(request) }
        return router
    }

    /// A JSON answer.
    static func json(_ text: String, status: HTTPResponse.Status = .ok, cacheControl: String = "no-store") -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: cacheControl],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A GET report: 400 for a bad parameter, 304 when the client holds this answer, else the
    /// answer (from the cache while the store has not changed).
    ///
    /// The ETag is the store version, plus the minute when `now` is not given (the answer then
    /// follows the clock, whose local date can change on any minute).
    /// `format=csv`, or `Accept: text/csv` without `format=`, answers the CSV of
    /// `report … --format csv` instead (`AnswerFormat`), with an ETag of its own.
    func read(_ request: Request, extra: Set<String> = [],
              question: (QueryParameters) throws -> ReportQuestion) async throws -> Response {
        let read: ReadRequest
        let format: OutputFormat
        do {
            read = try ReadRequest(path: request.uri.path, query: request.uri.query, extra: extra.union(["format"]),
                                   nowMs: configuration.nowMs, question: question)
            format = try AnswerFormat.of(format: try QueryParameters(request.uri.query).value("format"),
                                         accept: request.headers[values: .accept])
        } catch QueryError.invalidParameter(_, let message) {
            throw APIError.invalidParameter(message + ".")
        }
        let store = try await storeVersion()
        let clock = read.nowGiven ? "" : "-\(read.context.nowMs / 60_000)"
        let variant = format == .csv ? "-csv" : ""
        let eTag = "\"\(store)\(clock)\(variant)\""
        let contentType = format == .csv ? "text/csv; charset=utf-8; header=present" : "application/json; charset=utf-8"
        let headers: HTTPFields = [.contentType: contentType, .cacheControl: "private, no-cache", .eTag: eTag, .vary: "Accept"]
        if IfNoneMatch(request.headers[values: .ifNoneMatch]).matches(eTag) {
            return Response(status: .notModified, headers: headers)
        }
        let key = read.key + clock + variant
        let body: String
        do {
            body = try await cache.answer(key, version: store) { [readers] in try await readers.answer(read, format: format) }
        } catch QueryError.invalidParameter(_, let message) {
            throw APIError.invalidParameter(message + ".")
        } catch QueryError.notFound(_, let message) {
            throw APIError(status: .notFound, code: "INVALID_PARAMETER", message: message + ".")
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// `GET /learning/users`: the users with reading events and their latest offset, for the
    /// dashboard's picker; `{"rows": [{"userId", "timezoneOffsetMinutes"}]}` by user.
    func users(_ request: Request) async throws -> Response {
        try QueryParameters(request.uri.query).requireOnly([])
        let body = Renderer(color: false).render(try await readers.saved("learning_users"), as: .json)
        return Self.json(body, cacheControl: "private, no-cache")
    }

    /// `GET /sql?q=SELECT …`: ad hoc read-only SQL, only with `--allow-sql`; answers what
    /// `report sql … --format json` prints, streamed: rows go out a piece at a time as they are
    /// read (`AdHocRunner`); a result of one piece is answered whole, with its length. The status
    /// waits for the first piece: a statement stopped before it
    /// (past `--sql-timeout`: 408; past `--sql-max-bytes` or `--sql-max-rows`: 400; refused or
    /// not compiling: 400) gets its error answer; one stopped after it ends its rows there, with
    /// `"truncated": true` and the error. 503 when every `/sql` thread is busy. The statement
    /// stops when the client on `channel` goes away.
    func sql(_ request: Request, channel: any Channel) async throws -> Response {
        guard configuration.allowSQL else {
            throw APIError(status: .forbidden, code: "SQL_DISABLED", message: "Ad hoc SQL is off; start the server with --allow-sql.")
        }
        let parameters = try QueryParameters(request.uri.query)
        try parameters.requireOnly(["q"])
        let sql = try ReadRequest.required(parameters, "q")
        let interrupter = StatementInterrupter(timeLimit: configuration.sqlTimeout, limits: configuration.sqlLimits)
        let pieces: AnswerPieces
        do {
            pieces = try adHoc.start(sql, interrupter: interrupter, held: { [metrics] in metrics.sqlHeld($0) }) { [metrics] error in
                if let error, let limit = ServerMetrics.SQLLimit(stopping: error) { metrics.sqlStopped(limit) }
            }
        } catch {
            metrics.sqlStopped(.sqlThreads)
            throw APIError(status: .serviceUnavailable, code: "SQL_BUSY", message: "Every ad hoc SQL thread is busy; try again in a few seconds.",
                           headers: [.retryAfter: "\(max(1, configuration.sqlTimeout.components.seconds))"])
        }
        let stop: @Sendable () -> Void = {
            interrupter.cancel()
            pieces.leave()
        }
        let registration = disconnects.whenGone(channel, stop)
        let first = await withTaskCancellationHandler { await pieces.next() } onCancel: { stop() }
        let head: ByteBuffer
        switch first {
        case .piece(let piece):
            head = piece
        case .end(let error):
            // Every statement that does not fail ends with a piece, so this is its error.
            disconnects.remove(registration)
            throw error.map(sqlError) ?? APIError.internalError
        }
        let headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        let second = await withTaskCancellationHandler { await pieces.next() } onCancel: { stop() }
        if case .end(nil) = second {
            // A result of one piece is answered whole, with its length.
            pieces.written(head)
            disconnects.remove(registration)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: head))
        }
        let body = ResponseBody { [self] writer in
            defer { disconnects.remove(registration) }
            do {
                try await withTaskCancellationHandler {
                    var next = first
                    var waiting: AnswerPieces.Next? = second
                    while case .piece(let piece) = next {
                        defer { pieces.written(piece) }
                        try await writer.write(piece)
                        next = if let pending = waiting { pending } else { await pieces.next() }
                        waiting = nil
                    }
                    if case .end(let error?) = next {
                        // The head went out: the rows end here, saying what stopped them.
                        let stopped = sqlError(error) as? APIError ?? .internalError
                        try await writer.write(ByteBuffer(string: JSONRowsWriter.endCutShort(code: stopped.code, message: stopped.message)))
                    }
                    try await writer.finish(nil)
                } onCancel: { stop() }
            } catch {
                stop()
                throw error
            }
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The error answer for what stopped or refused an ad hoc statement (`error` itself when it
    /// is not the statement's doing, for a 500).
    private func sqlError(_ error: any Error) -> any Error {
        switch error {
        case let error as StatementInterrupted:
            switch error.cause {
            case .timeLimit: APIError(status: .requestTimeout, code: "SQL_TIMEOUT", message: error.description)
            case .bytes, .rows: APIError(status: .badRequest, code: "SQL_TOO_LARGE", message: error.description)
            case .cancelled: APIError(status: .serviceUnavailable, code: "SQL_CANCELLED", message: error.description)
            }
        case let error as AdHocRefused: APIError(status: .badRequest, code: "INVALID_SQL", message: error.description)
        case let error as QueryError: APIError(status: .badRequest, code: "INVALID_SQL", message: error.description)
        default: backend.statementError(error).map { APIError(status: .badRequest, code: "INVALID_SQL", message: $0) } ?? error
        }
    }

    /// `GET /metrics`: the counters of `ServerMetrics` in Prometheus' text format, with the
    /// connections open and evicted and the store's size read now.
    func metricsText(_ request: Request) async throws -> Response {
        try QueryParameters(request.uri.query).requireOnly([])
        let storeBytes = try await threads.runIfActive { [backend] in try backend.storeBytes() }
        let counts = connections.counts
        let text = metrics.text(connectionsOpen: counts.open, connectionsEvicted: counts.evicted, storeBytes: storeBytes)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
