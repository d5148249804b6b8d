import Foundation
import TallyQuery
import TallySupport
#if canImport(Glibc)
import Glibc
#endif

/// One writer per database: `report ingest`, `report serve` and `report clickhouse init` hold
/// this lock while they write, so that no two of them store the same key, or take the other's
/// batch in flight for a stopped run's (`InFlightBatch`).
///
/// The lock is the table `writer_lock`, one row per refresh of its holder: a token of its own,
/// the host, the process id, the command, when it was taken and when it was last refreshed (the
/// server's clock, so hosts with clocks apart agree). It is taken atomically: the row is
/// written to a table of the writer's own, which is then renamed to `writer_lock`, and a rename
/// onto an existing table fails. The holder refreshes it every `refreshEvery` seconds (an insert
/// that copies its row only while the table holds its token) and drops it on `release()`.
///
/// A lock is stale when its holder has not refreshed it for `staleAfter` seconds, or at once
/// when its holder ran on this host and that process is gone (killed). A stale lock is taken
/// over: renamed away (only one of two writers doing so at once succeeds), checked to be the
/// one judged stale (else renamed back), dropped, then taken as above. A live lock makes
/// `acquire` throw `ClickHouseError.otherWriter`, naming the holder.
public final class ClickHouseWriterLock: @unchecked Sendable {
    /// The process holding a database's lock, as its rows say.
    public struct Holder: Sendable, Equatable, CustomStringConvertible {
        /// The holder's own token (a new one per lock taken).
        public var token: String
        /// The host name the holder runs on.
        public var host: String
        /// The holder's process id on that host.
        public var pid: Int64
        /// The command it runs, such as `report ingest`.
        public var command: String
        /// When it took the lock, `YYYY-MM-DD hh:mm:ss` UTC on the server's clock.
        public var since: String
        /// Seconds since its last refresh, on the server's clock.
        public var secondsSinceRefresh: Int64

        /// `report serve (pid 42 on host h, since 2026-11-20 08:00:00 UTC, refreshed 3 s ago)`.
        public var description: String {
            "\(command) (pid \(pid) on host \(host), since \(since) UTC, refreshed \(secondsSinceRefresh) s ago)"
        }
    }

    /// The lock table's name.
    public static let table = "writer_lock"
    /// The holder's token.
    public let token: String
    private let client: ClickHouseClient
    private let timer: DispatchSourceTimer
    private let released = Locked(false)

    private init(client: ClickHouseClient, token: String, refreshEvery: Double) {
        self.client = client
        self.token = token
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + refreshEvery, repeating: refreshEvery)
        // The timer holds the lock until `release()`: a writer that keeps no reference keeps the lock.
        timer.setEventHandler { try? self.refresh() }
        timer.resume()
    }

    /// Takes the lock of `client`'s database (created when missing) for `command`, or throws
    /// `ClickHouseError.otherWriter` naming the live writer that holds it. A stale lock (above)
    /// is taken over.
    ///
    /// - Parameters:
    ///   - host: this machine's name; `pid` this process's id (injected by tests).
    ///   - staleAfter: seconds without a refresh after which another host's lock is stale.
    ///   - refreshEvery: seconds between refreshes (well below `staleAfter`).
    public static func acquire(using client: ClickHouseClient, command: String, host: String = ProcessInfo.processInfo.hostName,
                               pid: Int64 = Int64(ProcessInfo.processInfo.processIdentifier), staleAfter: Int64 = 60,
                               refreshEvery: Double = 10) throws -> ClickHouseWriterLock {
        let db = client.database
        let token = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let own = "\(db).\(table)__\(token)"
        try client.execute("CREATE DATABASE IF NOT EXISTS \(db)", useDatabase: false)
        try client.execute("""
            CREATE TABLE \(own) ENGINE = ReplacingMergeTree(refreshed) ORDER BY token AS
            SELECT \(ClickHouseSQL.literal(token)) AS token, \(ClickHouseSQL.literal(host)) AS host, toInt64(\(pid)) AS pid,
                   \(ClickHouseSQL.literal(command)) AS command, now() AS since, now() AS refreshed
            """)
        defer { try? client.execute("DROP TABLE IF EXISTS \(own)") }
        // Each round either takes the lock, throws, or removes a stale lock; a few rounds settle
        // a race with other writers.
        for _ in 0..<5 {
            do {
                try client.execute("RENAME TABLE \(own) TO \(db).\(table)")
                return ClickHouseWriterLock(client: client, token: token, refreshEvery: refreshEvery)
            } catch let error as ClickHouseError where error.code == ClickHouseError.tableExists {
                guard let holder = try holder(using: client) else { continue }
                let stale = holder.secondsSinceRefresh >= staleAfter || (holder.host == host && !processExists(holder.pid))
                guard stale else {
                    throw ClickHouseError.otherWriter(url: client.url.absoluteString, database: db, holder: holder.description,
                                                      staleAfter: staleAfter)
                }
                try remove(holder.token, using: client)
            }
        }
        throw ClickHouseError.unexpectedAnswer("the writer lock of \(db) changed hands five times while it was being taken")
    }

    /// The holder of `client`'s database's lock, nil when there is none (or it has no row).
    public static func holder(using client: ClickHouseClient) throws -> Holder? {
        let rows: [[ReportValue]]
        do {
            rows = try client.query("""
                SELECT token, host, pid, command, toString(since, 'UTC'), toInt64(now()) - toInt64(max(refreshed))
                FROM \(client.database).\(table) GROUP BY token, host, pid, command, since ORDER BY since LIMIT 1
                """).rows
        } catch let error as ClickHouseError where error.code == ClickHouseError.unknownTable {
            return nil
        }
        guard let row = rows.first, let token = row[0].text, let host = row[1].text, case .int(let pid) = row[2],
              let command = row[3].text, let since = row[4].text, case .int(let age) = row[5] else { return nil }
        return Holder(token: token, host: host, pid: pid, command: command, since: since, secondsSinceRefresh: age)
    }

    /// Stops refreshing and drops the lock, if it is still this writer's.
    public func release() {
        guard !released.withLock({ let was = $0; $0 = true; return was }) else { return }
        timer.cancel()
        try? Self.remove(token, using: client)
    }

    /// Writes a new refresh row while the lock table holds this writer's token.
    private func refresh() throws {
        guard !released.withLock({ $0 }) else { return }
        let db = client.database
        try client.execute("""
            INSERT INTO \(db).\(Self.table) SELECT token, host, pid, command, since, now() FROM \(db).\(Self.table)
            WHERE token = \(ClickHouseSQL.literal(token)) LIMIT 1
            """)
    }

    /// Drops the lock if it is `token`'s: renamed away first, so that of two writers removing
    /// the same stale lock only one succeeds, and renamed back when it turns out to be another's.
    private static func remove(_ token: String, using client: ClickHouseClient) throws {
        let db = client.database
        let aside = "\(db).\(table)__gone_\(token)"
        do {
            try client.execute("RENAME TABLE \(db).\(table) TO \(aside)")
        } catch let error as ClickHouseError where error.code == ClickHouseError.unknownTable || error.code == ClickHouseError.tableExists {
            return // another writer removed it first
        }
        let held = try client.query("SELECT count() FROM \(aside) WHERE token = \(ClickHouseSQL.literal(token))").rows
        if held.first?.first == .int(0) {
            try? client.execute("RENAME TABLE \(aside) TO \(db).\(table)")
        }
        try client.execute("DROP TABLE IF EXISTS \(aside)")
    }

    /// Whether a process `pid` runs on this host.
    private static func processExists(_ pid: Int64) -> Bool {
        guard let id = pid_t(exactly: pid), id > 0 else { return false }
        return kill(id, 0) == 0 || errno == EPERM
    }
}
