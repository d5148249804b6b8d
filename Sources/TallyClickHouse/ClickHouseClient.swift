import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallySupport

/// A small synchronous client of ClickHouse's HTTP interface: queries answer in
/// `TabSeparatedWithNamesAndTypes`, inserts send `RowBinary` rows (gzip-compressed
/// unless the server is on this machine), and a query can carry a table of values with it
/// (external data). Requests from several threads at once each wait for their own answer. On
/// Linux every request to an `http://` server goes over a plain socket (`PlainHTTPRequest`);
/// elsewhere, and to `https://`, through `URLSession`.
///
/// An insert whose request fails before any answer (connection refused or reset, timeout) is
/// sent again with the very same bytes, up to `attempts` times, so that a server which did
/// store the first copy can recognise the second (Replicated tables drop an identical block; on
/// one server the ingest then has the table merged (`mergeFinal(_:)`), so ReplacingMergeTree has collapsed
/// the identical rows before the queries, which do not read `FINAL`, see them; docs/clickhouse.md).
/// A lookup that sends a table along is tried the same way, since it changes nothing.
public final class ClickHouseClient: @unchecked Sendable {
    /// The server's base URL, such as `http://127.0.0.1:8123`.
    public let url: URL
    /// The database queries run in.
    public let database: String
    /// How many times an insert or a lookup is tried before its failure is reported.
    public let attempts: Int
    /// Whether insert bodies travel gzip-compressed: true unless the server is on this machine
    /// (a loopback address), where compressing costs both sides more CPU than the bytes cost.
    public let compressesInserts: Bool
    private let pause: @Sendable (Double) -> Void
    /// Made at the first request that needs it: on Linux, requests to `http://` servers never do.
    private let sessions = Locked<URLSession?>(nil)

    /// Creates a client of the server at `url` working in `database`.
    ///
    /// - Parameters:
    ///   - attempts: tries per insert or lookup (at least 1).
    ///   - pause: waits between tries, given seconds (0.5, 1, 2, …); injected so tests do not sleep.
    public init(url: String, database: String = "tally", attempts: Int = 4,
                pause: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) }) throws {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw ClickHouseError.invalidURL(url)
        }
        self.url = parsed
        self.database = try ClickHouseSQL.identifier(database)
        self.attempts = max(1, attempts)
        self.pause = pause
        compressesInserts = !Self.isLoopback(parsed.host ?? "")
    }

    /// The `URLSession` requests go through where the plain socket does not serve them.
    private var session: URLSession {
        sessions.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 600
            configuration.timeoutIntervalForResource = 3600
            let made = URLSession(configuration: configuration)
            session = made
            return made
        }
    }

    /// Runs a query and returns its rows.
    public func query(_ sql: String, settings: [String: String] = [:]) throws -> ClickHouseResult {
        let data = try send(sql + "\nFORMAT TabSeparatedWithNamesAndTypes", settings: settings, useDatabase: true)
        return try ClickHouseResult(tabSeparated: data)
    }

    /// Runs a statement that returns nothing (DDL); `useDatabase` false for statements that
    /// must run before the database exists; `settings` are sent with it (such as
    /// `insert_distributed_sync` for an `INSERT … SELECT` into a Distributed table).
    public func execute(_ sql: String, useDatabase: Bool = true, settings: [String: String] = [:]) throws {
        _ = try send(sql, settings: settings, useDatabase: useDatabase)
    }

    /// Inserts `rows`, `RowBinary` rows holding `columns` in that order, into `table`;
    /// gzip-compressed when `compressesInserts`, sent again unchanged when the request fails
    /// without an answer. Returns whether it was sent more than once (the server may then hold
    /// two copies until they are merged). `beforeResend` runs before each resend (an unreachable
    /// server there counts as the attempt failing).
    @discardableResult
    func insert(into table: String, columns: [String], rows: RowBinaryWriter, beforeResend: () throws -> Void = {}) throws -> Bool {
        let payload = Data(compressesInserts ? try Gzip.compress(rows.bytes, level: 1) : rows.bytes)
        let names = try columns.map(ClickHouseSQL.identifier).joined(separator: ", ")
        let sql = "INSERT INTO \(try ClickHouseSQL.identifier(table)) (\(names)) FORMAT RowBinary"
        return try trying(attempts, while: Self.unanswered, beforeResend: beforeResend) {
            try send(sql, settings: ["insert_distributed_sync": "1"], useDatabase: true, body: payload,
                     headers: compressesInserts ? ["Content-Encoding": "gzip"] : [:])
        }.resent
    }

    /// How many times `mergeFinal(_:)` asks for a merge the server did not do.
    static let mergeAttempts = 8

    /// Merges `table` (qualified or not) with `OPTIMIZE TABLE … FINAL`, so that a
    /// ReplacingMergeTree holds each row once, and returns only once the server did merge. While
    /// a background merge holds the parts, an `OPTIMIZE` merges nothing and, by default
    /// (`optimize_throw_if_noop = 0`), still answers success; it is sent with
    /// `optimize_throw_if_noop = 1`, so such an answer is an error (`CANNOT_ASSIGN_OPTIMIZE`, or
    /// `ABORTED` for a merge cancelled), and asked again after a pause (0.5, 1, 2, … s), up to
    /// `mergeAttempts` times; then it throws `ClickHouseError.notMerged`.
    public func mergeFinal(_ table: String) throws {
        let notDone = { (error: any Error) in (error as? ClickHouseError)?.code.map(ClickHouseError.mergeNotDone.contains) == true }
        do {
            _ = try trying(Self.mergeAttempts, while: notDone) {
                try execute("OPTIMIZE TABLE \(table) FINAL", settings: ["optimize_throw_if_noop": "1"])
            }
        } catch let error as ClickHouseError where notDone(error) {
            throw ClickHouseError.notMerged(url: url.absoluteString, table: table, attempts: Self.mergeAttempts, message: error.message)
        }
    }

    /// Runs a query that may read `table`, a table of `RowBinary` `rows` (one column per field of
    /// `structure`, such as `family String, key String`) sent along with the request as
    /// ClickHouse's external data, so that long lists of values need no SQL text. A read changes
    /// nothing, so a request that fails without an answer is sent again, as an insert is.
    func query(_ sql: String, table: String, structure: String, rows: RowBinaryWriter) throws -> ClickHouseResult {
        let name = try ClickHouseSQL.identifier(table)
        let boundary = "tally-" + UUID().uuidString
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name)\"\r\n\r\n".utf8)
        body.append(contentsOf: rows.bytes)
        body.append(contentsOf: Array("\r\n--\(boundary)--\r\n".utf8))
        let data = try trying(attempts, while: Self.unanswered) {
            try send(sql + "\nFORMAT TabSeparatedWithNamesAndTypes", settings: [name + "_structure": structure, name + "_format": "RowBinary"],
                     useDatabase: true, body: body, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"])
        }.answer
        return try ClickHouseResult(tabSeparated: data)
    }

    /// One request: `sql` in the URL when there is a body, else as the body.
    private func send(_ sql: String, settings: [String: String], useDatabase: Bool, body: Data? = nil,
                      headers: [String: String] = [:]) throws -> Data {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        var items = components.queryItems ?? []
        if useDatabase { items.append(URLQueryItem(name: "database", value: database)) }
        items.append(URLQueryItem(name: "max_query_size", value: String(64 << 20)))
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
            items.append(URLQueryItem(name: name, value: value))
        }
        if body != nil { items.append(URLQueryItem(name: "query", value: sql)) }
        components.queryItems = items
        // `+` in a query string reads as a space on the server: escape it as well.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        #if os(Linux)
        if url.scheme?.lowercased() == "http", let host = url.host {
            let target = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
                + "?" + (components.percentEncodedQuery ?? "")
            let request = PlainHTTPRequest(host: host, port: url.port ?? 80, target: target, headers: headers,
                                           body: body ?? Data(sql.utf8), timeout: 600)
            let response: PlainHTTPRequest.Response
            do {
                response = try request.send()
            } catch let failure as PlainHTTPRequest.Unanswered {
                throw ClickHouseError.unreachable(url: url.absoluteString, message: failure.message)
            }
            guard response.status == 200 else {
                throw ClickHouseError.server(url: url.absoluteString, status: response.status,
                                             message: Self.firstLine(String(decoding: response.body, as: UTF8.self)))
            }
            return response.body
        }
        #endif
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        if let body {
            request.httpBody = body
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        } else {
            request.httpBody = Data(sql.utf8)
        }
        let answer = Locked<(Data?, URLResponse?, (any Error)?)?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            answer.withLock { $0 = (data, response, error) }
            done.signal()
        }.resume()
        done.wait()
        let (data, response, error) = answer.withLock { $0 } ?? (nil, nil, nil)
        let label = url.absoluteString
        guard let http = response as? HTTPURLResponse else {
            throw ClickHouseError.unreachable(url: label, message: error.map { "\($0.localizedDescription)" } ?? "no answer")
        }
        guard http.statusCode == 200 else {
            let text = String(decoding: data ?? Data(), as: UTF8.self)
            throw ClickHouseError.server(url: label, status: http.statusCode, message: Self.firstLine(text))
        }
        return data ?? Data()
    }

    // MARK: - Tries

    /// Runs `request` up to `attempts` times while it fails with an error `retry` accepts,
    /// pausing 0.5, 1, 2, … s between tries and running `beforeResend` before each new one (a
    /// failure there counts as the try failing). Returns the answer and whether it took more
    /// than one try.
    private func trying<Answer>(_ attempts: Int, while retry: (any Error) -> Bool, beforeResend: () throws -> Void = {},
                                _ request: () throws -> Answer) throws -> (answer: Answer, resent: Bool) {
        var delay = 0.5, attempt = 1
        while true {
            do {
                if attempt > 1 { try beforeResend() }
                return (try request(), attempt > 1)
            } catch where attempt < attempts && retry(error) {
                pause(delay)
                delay *= 2
                attempt += 1
            }
        }
    }

    /// Whether `error` is a request that failed before any answer (`ClickHouseError.unreachable`).
    private static func unanswered(_ error: any Error) -> Bool {
        if case ClickHouseError.unreachable = error { return true }
        return false
    }

    // MARK: - Tables

    /// The database's tables, each with its engine.
    func tables() throws -> [String: String] {
        var out: [String: String] = [:]
        for row in try query("SELECT name, engine FROM system.tables WHERE database = \(ClickHouseSQL.literal(database))").rows {
            if let name = row[0].text, let engine = row[1].text { out[name] = engine }
        }
        return out
    }

    /// Creates `name` unless it exists: an empty table whose existence is a mark (a batch in
    /// flight, rollups stale, a set being filled).
    func mark(_ name: String) throws {
        try execute("CREATE TABLE IF NOT EXISTS \(database).\(name) (mark UInt8) ENGINE = TinyLog")
    }

    /// Drops the database's table or view `name` (a mark, a view made again, a table converted),
    /// if it exists.
    func dropTable(_ name: String) throws {
        try execute("DROP TABLE IF EXISTS \(database).\(name)")
    }

    /// Whether `host` names this machine.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    /// The server's message without its stack trace: `Code: 60, e.displayText() = DB::Exception: …`.
    static func firstLine(_ text: String) -> String {
        var line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        if let range = line.range(of: ", e.what() = ") { line = String(line[..<range.lowerBound]) }
        return line.replacingOccurrences(of: "e.displayText() = ", with: "")
    }
}
