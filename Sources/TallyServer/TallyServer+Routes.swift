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
    /// `report sql … --format json` prints. 408 past `--sql-timeout`, 503 when every `/sql`
    /// thread is busy, 400 for SQL that is refused or does not compile or whose values or result
    /// grow past `--sql-max-bytes` or `--sql-max-rows`. The statement stops
    /// when the client on `channel` goes away.
    func sql(_ request: Request, channel: any Channel) async throws -> Response {
        guard configuration.allowSQL else {
            throw APIError(status: .forbidden, code: "SQL_DISABLED", message: "Ad hoc SQL is off; start the server with --allow-sql.")
        }
        let parameters = try QueryParameters(request.uri.query)
        try parameters.requireOnly(["q"])
        let sql = try ReadRequest.required(parameters, "q")
        let interrupter = StatementInterrupter(timeLimit: configuration.sqlTimeout, limits: configuration.sqlLimits)
        let registration = disconnects.whenGone(channel) { interrupter.cancel() }
        defer { disconnects.remove(registration) }
        do {
            return Self.json(try await adHoc.json(sql, interrupter: interrupter))
        } catch let error as StatementInterrupted {
            switch error.cause {
            case .timeLimit:
                metrics.sqlStopped(.sqlTimeout)
                throw APIError(status: .requestTimeout, code: "SQL_TIMEOUT", message: error.description)
            case .bytes, .rows:
                metrics.sqlStopped(.sqlTooLarge)
                throw APIError(status: .badRequest, code: "SQL_TOO_LARGE", message: error.description)
            case .cancelled:
                metrics.sqlStopped(.clientGone)
                throw APIError(status: .serviceUnavailable, code: "SQL_CANCELLED", message: error.description)
            }
        } catch is AdHocRunner.Busy {
            metrics.sqlStopped(.sqlThreads)
            throw APIError(status: .serviceUnavailable, code: "SQL_BUSY", message: "Every ad hoc SQL thread is busy; try again in a few seconds.",
                           headers: [.retryAfter: "\(max(1, configuration.sqlTimeout.components.seconds))"])
        } catch let error as AdHocRefused {
            metrics.sqlStopped(.readOnly)
            throw APIError(status: .badRequest, code: "INVALID_SQL", message: error.description)
        } catch let error as QueryError {
            throw APIError(status: .badRequest, code: "INVALID_SQL", message: error.description)
        } catch {
            guard let message = backend.statementError(error) else { throw error }
            throw APIError(status: .badRequest, code: "INVALID_SQL", message: message)
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
