// Inserts event rows into SQLite through a thin layer on the C API and through GRDB, and prints
// rows/s for each, with time-ordered UUIDv7 keys and with random UUIDv4 keys.
//
//   swift run -c release --package-path Benchmarks/SQLiteBinding sqlite-binding-bench \
//       [--rows 1000000] [--batch 20000] [--cache-mb 2] [--repeat 3] [--dir /tmp]
//
// Every run writes a new database file in --dir: WAL, synchronous=NORMAL, cache_size --cache-mb
// (SQLite's default is 2 MB), one prepared INSERT reused, a transaction every --batch rows.
// The table is shaped like Tally's reading_events: 12 columns, the key in a UNIQUE index, the
// raw JSON (~330 bytes) in a text column. The rows are made before the clock starts; each
// figure is the median of --repeat runs.
import CSQLite
import Foundation
import GRDB

struct Options {
    var rows = 1_000_000
    var batch = 20_000
    var cacheMB = 2
    var repeats = 3
    var directory = NSTemporaryDirectory()

    init(_ arguments: [String]) {
        var it = arguments.makeIterator()
        while let flag = it.next() {
            guard let value = it.next() else { usage() }
            switch flag {
            case "--rows": rows = positive(value)
            case "--batch": batch = positive(value)
            case "--cache-mb": cacheMB = positive(value)
            case "--repeat": repeats = positive(value)
            case "--dir": directory = value
            default: usage()
            }
        }
    }
}

func positive(_ text: String) -> Int {
    guard let n = Int(text), n > 0 else { usage() }
    return n
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: sqlite-binding-bench [--rows N] [--batch N] [--cache-mb N] [--repeat N] [--dir DIR]\n".utf8))
    exit(2)
}

// MARK: - Rows

struct Row {
    var userId: String
    var sessionId: String
    var materialId: String
    var eventType: String
    var tsMs: Int64
    var tzMinutes: Int64
    var localDate: String
    var sequence: Int64
    var activeSeconds: Int64
    var progress: Double?
    var raw: String
}

/// SplitMix64: a seeded generator, so that every run inserts the same rows.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func hex(_ value: UInt64, digits: Int) -> String {
    let s = String(value, radix: 16)
    return String(repeating: "0", count: digits - s.count) + s
}

/// The canonical text of the 128-bit value high:low.
func uuidText(_ high: UInt64, _ low: UInt64) -> String {
    "\(hex(high >> 32, digits: 8))-\(hex((high >> 16) & 0xFFFF, digits: 4))-\(hex(high & 0xFFFF, digits: 4))-"
        + "\(hex(low >> 48, digits: 4))-\(hex(low & 0xFFFF_FFFF_FFFF, digits: 12))"
}

/// UUIDv7: 48-bit Unix ms, version 7, 12 random bits, variant 10, 62 random bits.
func uuid7(ms: Int64, _ rng: inout SplitMix64) -> String {
    let high = UInt64(ms) << 16 | 0x7000 | (rng.next() & 0xFFF)
    return uuidText(high, rng.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
}

/// UUIDv4: version 4, variant 10, 122 random bits.
func uuid4(_ rng: inout SplitMix64) -> String {
    let high = rng.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x4000
    return uuidText(high, rng.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
}

func makeRows(_ count: Int) -> (rows: [Row], v7: [String], v4: [String]) {
    var rng = SplitMix64(state: 42)
    let types = ["heartbeat", "heartbeat", "heartbeat", "heartbeat", "position_changed", "material_opened", "material_closed"]
    let start: Int64 = 1_763_700_000_000
    var rows: [Row] = [], v7: [String] = [], v4: [String] = []
    var dates: [Int64: String] = [:]
    rows.reserveCapacity(count)
    v7.reserveCapacity(count)
    v4.reserveCapacity(count)
    for i in 0..<count {
        let ts = start + Int64(i) * 1_500 + Int64(rng.next() % 1_000)
        let key = uuid7(ms: ts, &rng)
        let user = "u1-\(hex(rng.next() % 64, digits: 3))"
        let session = "\(user)-s\(i / 60)"
        let material = "m-\(hex(rng.next() % 26, digits: 2))"
        let type = types[Int(rng.next() % UInt64(types.count))]
        let tz: Int64 = [480, -300, 0, 330, 540][Int(rng.next() % 5)]
        let page = Int(rng.next() % 300) + 1
        let progress = Double(page) / 320
        let seconds: Int64 = type == "heartbeat" ? 15 : 0
        let day = (ts + tz * 60_000) / 86_400_000
        let date = dates[day] ?? Date(timeIntervalSince1970: TimeInterval(day * 86_400)).ISO8601Format(.iso8601.year().month().day())
        dates[day] = date
        let raw = """
            {"clientSessionId":"\(session)","materialId":"\(material)",\
            "platform":"ios","appVersion":"2.3.0","clientTimezoneOffsetMinutes":\(tz),"userId":"\(user)",\
            "eventId":"\(key)","eventType":"\(type)","clientTimestampMs":\(ts),"sequence":\(i % 60),\
            "activeSecondsDelta":\(seconds),"position":{"page":\(page),"pageCount":320}}
            """
        rows.append(Row(userId: user, sessionId: session, materialId: material, eventType: type, tsMs: ts, tzMinutes: tz,
                        localDate: date, sequence: Int64(i % 60), activeSeconds: seconds, progress: progress, raw: raw))
        v7.append(key)
        v4.append(uuid4(&rng))
    }
    return (rows, v7, v4)
}

let schema = """
    CREATE TABLE reading_events (
        event_id TEXT NOT NULL, user_id TEXT NOT NULL, session_id TEXT, material_id TEXT NOT NULL,
        event_type TEXT NOT NULL, ts_ms INTEGER NOT NULL, tz_minutes INTEGER NOT NULL, local_date TEXT NOT NULL,
        sequence INTEGER, active_seconds INTEGER NOT NULL, progress REAL, raw TEXT NOT NULL);
    CREATE UNIQUE INDEX reading_events_key ON reading_events (event_id);
    """
let insertSQL = "INSERT INTO reading_events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
let options = Options(Array(CommandLine.arguments.dropFirst()))
let pragmas = "PRAGMA synchronous = NORMAL; PRAGMA cache_size = -\(options.cacheMB * 1024);"

// MARK: - The C API, thinly wrapped

struct SQLiteFailure: Error, CustomStringConvertible {
    var description: String
}

final class CDatabase {
    let handle: OpaquePointer
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw SQLiteFailure(description: "cannot open \(path)")
        }
        handle = db
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw SQLiteFailure(description: String(cString: sqlite3_errmsg(handle)))
        }
    }

    func prepare(_ sql: String) throws -> CStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else {
            throw SQLiteFailure(description: String(cString: sqlite3_errmsg(handle)))
        }
        return CStatement(handle: statement, database: handle)
    }
}

final class CStatement {
    let handle: OpaquePointer
    let database: OpaquePointer

    init(handle: OpaquePointer, database: OpaquePointer) {
        self.handle = handle
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    @inline(__always) func bind(_ value: String, at index: Int32) {
        var value = value
        value.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                _ = sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), CDatabase.transient)
            }
        }
    }

    @inline(__always) func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    @inline(__always) func bind(_ value: Double?, at index: Int32) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func run() throws {
        let rc = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard rc == SQLITE_DONE else { throw SQLiteFailure(description: String(cString: sqlite3_errmsg(database))) }
    }
}

func insertWithCAPI(path: String, rows: [Row], keys: [String], batch: Int) throws -> Duration {
    let db = try CDatabase(path: path)
    try db.execute("PRAGMA journal_mode = WAL; " + pragmas)
    try db.execute(schema)
    let insert = try db.prepare(insertSQL)
    return try ContinuousClock().measure {
        for start in stride(from: 0, to: rows.count, by: batch) {
            try db.execute("BEGIN")
            for i in start..<min(start + batch, rows.count) {
                let row = rows[i]
                insert.bind(keys[i], at: 1)
                insert.bind(row.userId, at: 2)
                insert.bind(row.sessionId, at: 3)
                insert.bind(row.materialId, at: 4)
                insert.bind(row.eventType, at: 5)
                insert.bind(row.tsMs, at: 6)
                insert.bind(row.tzMinutes, at: 7)
                insert.bind(row.localDate, at: 8)
                insert.bind(row.sequence, at: 9)
                insert.bind(row.activeSeconds, at: 10)
                insert.bind(row.progress, at: 11)
                insert.bind(row.raw, at: 12)
                try insert.run()
            }
            try db.execute("COMMIT")
        }
    }
}

// MARK: - GRDB

enum GRDBPath: String {
    /// `statement.execute(arguments:)`: strings bound without a copy (SQLITE_STATIC) while it runs.
    case executeArguments = "execute(arguments:)"
    /// `statement.setUncheckedArguments(_:)` then `execute()`: no validation, strings copied.
    case uncheckedArguments = "setUncheckedArguments"
}

func insertWithGRDB(path: String, rows: [Row], keys: [String], batch: Int, how: GRDBPath) throws -> Duration {
    var configuration = Configuration()
    configuration.journalMode = .wal
    configuration.prepareDatabase { db in try db.execute(sql: pragmas) }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.write { db in try db.execute(sql: schema) }
    return try queue.inDatabase { db in
        let insert = try db.cachedStatement(sql: insertSQL)
        return try ContinuousClock().measure {
            for start in stride(from: 0, to: rows.count, by: batch) {
                try db.inTransaction {
                    for i in start..<min(start + batch, rows.count) {
                        let row = rows[i]
                        let arguments: StatementArguments = [
                            keys[i], row.userId, row.sessionId, row.materialId, row.eventType, row.tsMs, row.tzMinutes,
                            row.localDate, row.sequence, row.activeSeconds, row.progress, row.raw,
                        ]
                        switch how {
                        case .executeArguments:
                            try insert.execute(arguments: arguments)
                        case .uncheckedArguments:
                            insert.setUncheckedArguments(arguments)
                            try insert.execute()
                        }
                    }
                    return .commit
                }
            }
        }
    }
}

// MARK: - Main

print("SQLite \(String(cString: sqlite3_libversion())), \(options.rows) rows, a transaction every \(options.batch), "
      + "cache \(options.cacheMB) MB, median of \(options.repeats) runs")
let made = ContinuousClock.now
let (rows, v7Keys, v4Keys) = makeRows(options.rows)
let rawBytes = rows.reduce(0) { $0 + $1.raw.utf8.count } / max(rows.count, 1)
print("rows made in \(made.duration(to: .now)), raw JSON \(rawBytes) bytes a row on average")

func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

var results: [String: Double] = [:]
for (keyName, keys) in [("UUIDv7", v7Keys), ("UUIDv4", v4Keys)] {
    let runs: [(String, (String) throws -> Duration)] = [
        ("C API", { try insertWithCAPI(path: $0, rows: rows, keys: keys, batch: options.batch) }),
        ("GRDB \(GRDBPath.executeArguments.rawValue)",
         { try insertWithGRDB(path: $0, rows: rows, keys: keys, batch: options.batch, how: .executeArguments) }),
        ("GRDB \(GRDBPath.uncheckedArguments.rawValue)",
         { try insertWithGRDB(path: $0, rows: rows, keys: keys, batch: options.batch, how: .uncheckedArguments) }),
    ]
    for (name, insert) in runs {
        let path = (options.directory as NSString).appendingPathComponent("sqlite-binding-bench.sqlite")
        var times: [Double] = []
        for _ in 0..<options.repeats {
            removeDatabase(path)
            times.append(seconds(try insert(path)))
        }
        removeDatabase(path)
        let elapsed = times.sorted()[times.count / 2]
        let rate = Double(rows.count) / elapsed
        results["\(keyName) \(name)"] = rate
        let vsC = results["\(keyName) C API"].map { String(format: "  (%.2f of the C API)", rate / $0) } ?? ""
        let label = "\(keyName) keys, \(name)".padding(toLength: 46, withPad: " ", startingAt: 0)
        print(label + String(format: "%7.2f s %10.0f rows/s", elapsed, rate) + vsC)
    }
}
