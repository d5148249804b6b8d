@testable import TallyClickHouse
import TallyEvents
import TallyIngest
import TallyQuery
import TallySQLite
import XCTest

/// The feed states and rejected lines travel to ClickHouse as `TabSeparated` rows (`RowWriter`),
/// events as `RowBinary`: text holding tabs, newlines, carriage returns, backslashes, quotes and
/// NUL, property arrays holding quotes and separators, absent values (NULL) and numbers read
/// back exactly as they were sent.
final class TabSeparatedRowTests: XCTestCase {
    /// The writer skips clean text eight bytes at a time: a byte to escape is found wherever it
    /// is, next to multi-byte UTF-8 or not (a quote, which the eight-byte test stops at, is kept).
    func testEveryByteToEscapeIsFoundAtEveryPlace() {
        let escapes: [(Character, String)] = [("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r"), ("\\", "\\\\"), ("\0", "\\0"), ("'", "'")]
        for filler in ["a", "线", "(", "&"] {
            for length in [1, 7, 8, 9, 15, 16, 17, 25] {
                for place in 0..<length {
                    for (byte, escaped) in escapes {
                        let head = String(repeating: filler, count: place)
                        let tail = String(repeating: filler, count: length - place - 1)
                        var row = RowWriter()
                        row.text(head + String(byte) + tail)
                        row.text("")
                        row.endRow()
                        XCTAssertEqual(String(decoding: row.bytes, as: UTF8.self),
                                       head + escaped + tail + "\t\n", "\(filler) \(length) \(place)")
                    }
                }
            }
        }
    }

    func testEscapedTextArraysAndNullsReadBackUnchanged() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let lines = [
            #"{"eventId":"r1","userId":"u\tone","materialId":"m'1\\","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":15,"#
                + #""title":"a\tb\nc\\d'e\r\u0000f 线","position":{"progress":0.125},"more":{"k":"v\tw"}}"#,
            #"{"eventId":"o1","timestamp":1795100000000,"eventName":"view_loaded","sessionId":"s\\1","userId":"u","#
                + #""properties":{"k'\t":"v\\'\n","n":-1.5e-7,"z":null,"list":[1,"x'"],"big":123456789012}}"#,
        ]
        let counts = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8),
                                                                                       name: "escapes.ndjson"), onRejection: { _, _ in })
        XCTAssertEqual(counts, IngestCounts(accepted: 2, duplicates: 0, rejected: 0))
        XCTAssertEqual(try client.query("SELECT user_id, material_id, title, progress, position, sequence, session_id, extra FROM reading_events").rows,
                       [[.text("u\tone"), .text("m'1\\"), .text("a\tb\nc\\d'e\r\u{0}f 线"), .double(0.125), .text(#"{"progress":0.125}"#), .null,
                         .null, .text(#"{"more":{"k":"v\tw"}}"#)]])
        XCTAssertEqual(try client.query("""
            SELECT session_id, arrayStringConcat(prop_keys, '|'), arrayStringConcat(prop_values, '|'),
                   arrayStringConcat(arrayMap(n -> ifNull(toString(n), 'NULL'), prop_numbers), '|')
            FROM observability_events
            """).rows,
                       [[.text("s\\1"), .text("k'\t|n|list|big"), .text("v\\'\n|-1.5e-7|[1,\"x'\"]|123456789012"),
                         .text("NULL|-1.5e-7|NULL|123456789012")]])
    }
}
