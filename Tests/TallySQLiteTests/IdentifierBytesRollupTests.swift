import Foundation
import TallyIngest
@testable import TallySQLite
import TallyTestSupport
import XCTest

/// Identifiers are bytes in the rollups kept at ingest: a store of events whose ids are
/// canonically equivalent Unicode (`"caf\u{E9}"` and `"cafe\u{301}"`) holds exactly the rows of
/// the same events with the ids spelled as distinct ASCII tokens, the tokens then put back.
final class IdentifierBytesRollupTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Each token and the id it stands for; the tokens sort as the ids' bytes do, and every
    /// second id is canonically equivalent to the one before it.
    private static let ids: [(token: String, id: String)] = [
        ("Q1Q", "cafe\u{301}"), ("Q2Q", "caf\u{E9}"), ("Q3Q", "\u{C5}"), ("Q4Q", "\u{212B}"),
        ("Q5Q", "\u{1112}\u{1161}\u{11AB}"), ("Q6Q", "\u{D55C}"),
    ]

    /// Records of every family whose users, materials, impressions, models, reasons, pages,
    /// page instances, items and event names are the tokens.
    private func lines(_ count: Int) -> [String] {
        (0..<count).map { n in
            func id(_ step: Int) -> String { Self.ids[(n / step) % Self.ids.count].token }
            let ts = 1_700_000_000_000 + Int64(n % 7) * 3_600_000
            switch n % 4 {
            case 0:
                return #"{"eventId":"r\#(n)","userId":"\#(id(1))","materialId":"\#(id(2))","eventType":"\#(n % 9 == 0 ? "markedAsRead" : "heartbeat")","clientTimestampMs":\#(ts),"activeSecondsDelta":\#(n % 13),"title":"\#(id(3))"}"#
            case 1:
                let kind = ["like", "dislike", "neutral"][n % 3]
                let reason = kind == "dislike" ? #","reason":"\#(id(1))""# : ""
                return #"{"id":"f\#(n)","userId":"\#(id(1))","timestamp":\#(ts),"feedbackType":"\#(kind)"\#(reason),"context":{"impressionId":"\#(id(3))","modelInfo":"\#(id(5))","feedPosition":\#(n % 3)}}"#
            case 2:
                return #"{"eventId":"x\#(n)","eventType":"exposure","userId":"\#(id(1))","pageId":"\#(id(1))","pageInstanceId":"\#(id(2))","itemId":"\#(id(3))","impressionId":"\#(id(3))","modelInfo":"\#(id(5))","feedPosition":\#(n % 3),"clientTimestampMs":\#(ts)}"#
            default:
                return #"{"eventId":"o\#(n)","timestamp":\#(ts),"eventName":"\#(id(2))","sessionId":"s","userId":"\#(id(1))","properties":{}}"#
            }
        }
    }

    /// `text` with every token replaced by its id, byte by byte.
    private static func spelled(_ text: String) -> String {
        var bytes = Array(text.utf8)
        for (token, id) in ids {
            let token = Array(token.utf8)
            var out: [UInt8] = []
            var i = 0
            while i < bytes.count {
                if bytes[i...].starts(with: token) {
                    out += Array(id.utf8)
                    i += token.count
                } else {
                    out.append(bytes[i])
                    i += 1
                }
            }
            bytes = out
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every table's rows but the migrations' (and but rejected lines' lengths and digests), texts passed through `map`, as UTF-8 bytes sorted
    /// by bytes (Swift's `String` comparison would not tell the equivalent ids apart).
    private func rows(_ store: EventStore, map: (String) -> String = { $0 }) throws -> [String: [[UInt8]]] {
        let tables = try store.database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'tally_migrations'").allRows()
        var rows: [String: [[UInt8]]] = [:]
        for case .text(let table) in tables.map({ $0[0] }) {
            // A rejected line's length and digest measure its bytes, which the two spellings change.
            let columns = try store.database.prepare("SELECT name FROM pragma_table_info('\(table)')").allRows()
                .compactMap { row -> String? in if case .text(let name) = row[0], !["raw_bytes", "raw_sha256"].contains(name) { return "\"\(name)\"" }; return nil }
            rows[table] = try store.database.prepare("SELECT \(columns.joined(separator: ", ")) FROM \"\(table)\"").allRows().map { row in
                Array("\(row.map { value -> SQLValue in if case .text(let text) = value { return .text(map(text)) }; return value })".utf8)
            }.sorted { $0.lexicographicallyPrecedes($1) }
        }
        return rows
    }

    private func store(_ lines: [String], _ name: String, batchSize: Int) throws -> EventStore {
        let store = try EventStore(path: directory.appendingPathComponent(name).path)
        let ingestor = try Ingestor(store: store, batchSize: batchSize)
        try ingestor.store(lines: lines, file: "t.ndjson", groupSize: batchSize)
        return store
    }

    func testEquivalentIdsKeepRowsOfTheirOwnInEveryRollup() throws {
        let tokens = lines(240)
        for batchSize in [1000, 5] {
            let expected = try rows(try store(tokens, "ascii-\(batchSize).sqlite", batchSize: batchSize), map: Self.spelled)
            let actual = try rows(try store(tokens.map(Self.spelled), "unicode-\(batchSize).sqlite", batchSize: batchSize))
            XCTAssertEqual(Set(actual.keys), Set(expected.keys))
            for (table, rows) in expected {
                XCTAssertEqual(actual[table]?.count, rows.count, "\(table), batches of \(batchSize)")
                XCTAssertTrue(actual[table] == rows, "\(table), batches of \(batchSize)")
            }
        }
    }
}
