import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix

/// `report serve`: the store over HTTP (`api.md`). GET endpoints answer the bytes of
/// `report … --format json`; POST endpoints ingest as `report ingest` does and answer per event;
/// `/` is a dashboard page and `/openapi.json` describes every endpoint.
///
/// The store is a `ServerBackend` (SQLite unless the caller gives another). One writer thread
/// stores every body (group commit; a request is answered after its commit), readers run on
/// worker threads (SQLite: read-only connections that WAL never blocks). Answers are cached per
/// store version (`StoreVersioning`), which is also the ETag.
@available(macOS 14, iOS 17, tvOS 17, visionOS 1, *)
public final class TallyServer: Sendable {
    /// How the server runs.
    public let configuration: ServerConfiguration
    let backend: any ServerBackend
    let writer: StoreWriter
    let threads: NIOThreadPool
    let readers: ReaderPool
    let adHoc: AdHocRunner
    let disconnects = Disconnects()
    let versioning: any StoreVersioning
    let cache = AnswerCache()
    let health = HealthCounts()
    let metrics = ServerMetrics()
    /// The open connections, for `--max-connections` and `/metrics`.
    let connections: HeadlessConnections
    let openAPI: StaticDocument
    let dashboard: StaticDocument
    /// Names this run of the server in ETags: a restart never reuses a tag for other content.
    let instance: String
    let logger: Logger

    /// Opens the SQLite store at `configuration.storePath` (creating it when missing) and
    /// starts the writer and worker threads.
    public convenience init(configuration: ServerConfiguration) throws {
        try self.init(configuration: configuration, backend: SQLiteServerBackend(path: configuration.storePath))
    }

    /// Serves `backend` (`configuration.storePath` is then unused): opens its writer first,
    /// then its versioning, and starts the writer and worker threads.
    public init(configuration: ServerConfiguration, backend: any ServerBackend) throws {
        self.configuration = configuration
        self.backend = backend
        let ingestor = try backend.makeIngestor()
        let versioning = try backend.makeVersioning()
        self.versioning = versioning
        writer = StoreWriter(ingestor: ingestor, stored: { versioning.writerStored() })
        threads = NIOThreadPool(numberOfThreads: max(1, configuration.workerThreads))
        threads.start()
        readers = ReaderPool(threads: threads, open: { try backend.makeReports() })
        adHoc = AdHocRunner(threads: configuration.sqlThreads, open: { try backend.makeReports() })
        openAPI = try StaticDocument.openAPI()
        dashboard = try StaticDocument(resource: "dashboard", ext: "html", contentType: "text/html; charset=utf-8")
        instance = String(UInt64(bitPattern: configuration.nowMs()) ^ UInt64.random(in: 0...UInt64.max), radix: 36)
        var logger = Logger(label: "tally.serve", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .warning
        self.logger = logger
        connections = HeadlessConnections(limit: configuration.maxConnections, logger: logger)
    }

    /// The application: the router on the configured address, closing connections idle past
    /// `idleTimeout` (a request head never finished counts as idle) and holding at most
    /// `maxConnections` open; at that limit the oldest connection without a request head makes
    /// room for a new one. `onListening` hears the bound port once the server accepts
    /// connections (the port asked for, or the one picked for 0).
    public func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let headless = connections
        let disconnects = self.disconnects
        return Application(
            router: router(),
            server: .http1(configuration: HTTP1Channel.Configuration(additionalChannelHandlers: [headless.handler(disconnects: disconnects)],
                                                                     idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                availableConnectionsDelegate: ConnectionCap(limit: configuration.maxConnections, logger: logger)),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT: then stops accepting, finishes the requests in flight
    /// (their events committed), stops the writer and returns.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        do {
            try await application(onListening: onListening).runService()
        } catch {
            try await close()
            throw error
        }
        try await close()
    }

    /// Stops the writer (after storing what is queued), any `/sql` statement still running, and
    /// the worker threads.
    public func close() async throws {
        writer.stop()
        try await adHoc.close()
        try await threads.shutdownGracefully()
    }

    /// The store version as it names answers: this run's instance and the backend's version,
    /// read on a worker thread when it cannot be told at once.
    func storeVersion() async throws -> String {
        let nowMs = configuration.nowMs()
        if let known = try versioning.peek(nowMs: nowMs) {
            return "\(instance)-\(known)"
        }
        let read = try await threads.runIfActive { [versioning] in try versioning.read(nowMs: nowMs) }
        return "\(instance)-\(read)"
    }
}
