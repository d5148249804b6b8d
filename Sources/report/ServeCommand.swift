import ArgumentParser
import Foundation
import TallyServer

/// `report serve`: the store (SQLite or ClickHouse) over HTTP for dashboards and uploaders (`docs/api.md`).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the store over HTTP: the JSON API, the uploaders' endpoints and a dashboard.",
        discussion: """
            Prints "listening on http://HOST:PORT" once it accepts connections. SIGTERM or SIGINT stops \
            accepting, finishes the requests in flight (every accepted event committed) and exits 0. \
            With --backend clickhouse the server should be its database's one writer: an event that \
            a `report ingest` into the same database stores at the same moment may be stored twice.
            """)

    @Option(help: "The store file with --backend sqlite, created when missing (default: \(StoreFile.defaultHelp)).")
    var db: String?

    @OptionGroup var storage: BackendOptions

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port; 0 picks a free one.")
    var port = 8080

    @Option(help: ArgumentHelp("Bearer tokens and their scopes (read, write, sql, metrics), one `SCOPE[,SCOPE...] TOKEN` a line (default: $TALLY_TOKENS, lines split by ; or newlines).", valueName: "path"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("Deprecated (it shows in ps): one token with every scope (default: $TALLY_TOKEN, else $REPORT_TOKEN).", valueName: "TOKEN"))
    var token: [String] = []

    @Option(name: .customLong("cors-origin"), help: ArgumentHelp("A browser origin allowed to call the API, such as http://localhost:3000, or * (repeatable).", valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(help: ArgumentHelp("The largest request body after decompression: bytes, or with K, M or G (binary units).", valueName: "size"))
    var maxBody = "16M"

    @Flag(help: "Answer ad hoc read-only SQL at GET /sql?q=….")
    var allowSQL = false

    @OptionGroup var sqlTimeout: SQLTimeoutOption

    @Option(help: "Threads that run queries and validate bodies.")
    var threads = max(2, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: ArgumentHelp("Close a connection that sends no complete request head, or stays idle between requests, this long.", valueName: "seconds"))
    var idleTimeout = 15.0

    @Option(help: "The most connections open at once; beyond it new ones wait (default: 32768, lowered to fit the open-file limit).")
    var maxConnections: Int?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port).") }
        guard Self.bytes(maxBody) != nil else { throw ValidationError("--max-body must be a positive size such as 16M or 1048576, got \"\(maxBody)\".") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1, got \(threads).") }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 3600 else { throw ValidationError("--idle-timeout must be more than 0 and at most 3600 seconds, got \(idleTimeout).") }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1, got \(maxConnections).") }
        guard sqlTimeout.limit != nil else { throw ValidationError("--sql-timeout must be more than 0 for report serve: it bounds how long a stop can take.") }
        guard token.count <= 1 else {
            throw ValidationError("--token is given \(token.count) times; give it once, or list tokens with their scopes in --token-file.")
        }
        _ = try resolvedTokens()
    }

    /// The tokens of `--token-file` and `--token`; when neither is given, those of
    /// `$TALLY_TOKENS` and `$TALLY_TOKEN` (else `$REPORT_TOKEN`). A plain token has every scope.
    func resolvedTokens() throws -> [AccessToken] {
        let environment = ProcessInfo.processInfo.environment
        var list = ""
        var source = "$TALLY_TOKENS"
        var plain = token.first
        if tokenFile != nil || plain != nil {
            if let tokenFile {
                source = tokenFile
                do {
                    list = try String(contentsOfFile: tokenFile, encoding: .utf8)
                } catch {
                    throw ValidationError("--token-file \(tokenFile) cannot be read: \(error.localizedDescription)")
                }
            }
        } else {
            list = environment["TALLY_TOKENS"] ?? ""
            plain = environment["TALLY_TOKEN"] ?? environment["REPORT_TOKEN"]
        }
        var tokens: [AccessToken]
        do {
            tokens = try AccessToken.parse(list, source: source)
        } catch let error as AccessToken.ListError {
            throw ValidationError(error.description)
        }
        if let plain {
            guard !plain.isEmpty else { throw ValidationError("The token must not be empty.") }
            tokens.append(AccessToken(plain, scopes: Set(TokenScope.allCases)))
        }
        return tokens
    }

    /// Bytes of `1048576`, `512K`, `16M`, `1G` (also `KiB`, `MiB`, `GiB`).
    static func bytes(_ text: String) -> Int? {
        let units: [(String, Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30)]
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            guard let n = Int(text.dropLast(suffix.count)), n > 0, n <= Int.max / factor else { return nil }
            return n * factor
        }
        return Int(text).flatMap { $0 > 0 ? $0 : nil }
    }

    /// `--max-connections` (default 32768), lowered to what the open-file limit (raised to its
    /// hard limit first) allows; a note says so when the limit asked for is lowered.
    func connectionLimit() -> Int {
        let wanted = maxConnections ?? 32_768
        guard let files = FileLimit.raiseToHardLimit(), files - FileLimit.reserve < wanted else { return wanted }
        let fitting = max(1, files - FileLimit.reserve)
        if maxConnections != nil {
            Terminal.writeError("note: --max-connections lowered from \(wanted) to \(fitting): the process may open at most \(files) files.\n")
        }
        return fitting
    }

    func run() async throws {
        guard #available(macOS 14, iOS 17, tvOS 17, visionOS 1, *) else {
            throw ValidationError("report serve needs macOS 14 or later.")
        }
        if !token.isEmpty {
            Terminal.writeError("note: --token shows in ps and gives every scope; list tokens with their scopes in --token-file or $TALLY_TOKENS.\n")
        }
        let configuration = ServerConfiguration(
            storePath: StoreFile.path(db),
            host: host, port: port, tokens: try resolvedTokens(), corsOrigins: corsOrigins,
            maxBodyBytes: Self.bytes(maxBody) ?? 16 << 20, allowSQL: allowSQL,
            sqlTimeout: sqlTimeout.limit ?? .seconds(5), workerThreads: threads,
            idleTimeout: .milliseconds(Int64((idleTimeout * 1000).rounded(.up))), maxConnections: connectionLimit(),
            nowMs: { Int64(Date().timeIntervalSince1970 * 1000) })
        let backend: any ServerBackend = switch storage.backend {
        case .sqlite: SQLiteServerBackend(path: configuration.storePath)
        case .clickhouse: ClickHouseServerBackend(client: try storage.clickHouseClient())
        }
        let server = try TallyServer(configuration: configuration, backend: backend)
        let host = self.host
        try await server.run { port in
            Terminal.write("listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)\n")
        }
    }
}
