@testable import TallyClickHouse
import TallyIngest
import TallyQuery
import XCTest

/// Every row the ingest sends travels to ClickHouse as `RowBinary`: every column of every family
/// reads back as it was sent, present or NULL, at the edges of its type's range, long strings
/// (lengths of two bytes) included; text holding tabs, newlines, carriage returns, backslashes,
/// quotes and NUL reaches the events, the feed counters and the rejected lines unchanged.
final class RowBinaryRowTests: XCTestCase {
    func testEachTypeIsWrittenAsRowBinaryHoldsIt() {
        var row = RowBinaryWriter()
        row.string("ab")
        row.string(String(repeating: "x", count: 300))
        row.nullableString(nil)
        row.nullableString("")
        row.int64(-2)
        row.nullableInt64(nil)
        row.nullableInt64(1)
        row.int16(-720)
        row.uint32(3600)
        row.nullableFloat64(0.5)
        row.nullableFloat64(.infinity)
        row.strings(["a", ""])
        row.nullableFloat64s([nil, 1])
        row.uint8(200)
        row.flag(true)
        row.flag(false)
        var expected: [UInt8] = [2, 0x61, 0x62, 0xAC, 0x02] + Array(repeating: 0x78, count: 300)
        expected += [1, 0, 0]
        expected += [0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        expected += [1, 0, 1, 0, 0, 0, 0, 0, 0, 0]
        expected += [0x30, 0xFD, 0x10, 0x0E, 0, 0]
        expected += [0, 0, 0, 0, 0, 0, 0, 0xE0, 0x3F, 1]
        expected += [2, 1, 0x61, 0]
        expected += [2, 1, 0, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F]
        expected += [200, 1, 0]
        XCTAssertEqual(row.bytes, expected)
        XCTAssertEqual(RowBinaryWriter(rowsOf: [("a", ""), ("", "bc")]) { $0 }.bytes, [1, 0x61, 0, 0, 2, 0x62, 0x63])
    }

    func testEveryColumnOfEveryFamilyReadsBack() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let long = String(repeating: "长", count: 100) // 300 bytes: a two-byte length
        let lines = [
            #"{"eventId":"r-full","clientSessionId":"s1","materialId":"m1","eventType":"heartbeat","clientTimestampMs":1795100000000,"#
                + #""sequence":-3,"activeSecondsDelta":3600,"position":{"progress":0.1},"readingTargetType":"knowledge_source","#
                + #""knowledgeBaseId":"kb","title":"\#(long)","userId":"u","clientTimezoneOffsetMinutes":-720,"platform":"ios","#
                + #""appVersion":"1.0","more":1}"#,
            #"{"eventId":"r-min","materialId":"m2","eventType":"material_opened","clientTimestampMs":1795100000001,"userId":"u"}"#,
            #"{"id":"f-full","timestamp":1795100000000,"feedbackType":"dislike","reason":"R","context":{"businessPayload":{"itemId":"i1"},"#
                + #""feedPosition":300,"impressionId":"imp1","modelInfo":"m"},"userId":"u","clientTimezoneOffsetMinutes":840,"#
                + #""platform":"android","appVersion":"2"}"#,
            #"{"id":"f-min","timestamp":1795100000001,"feedbackType":"like","context":{"feedPosition":0,"impressionId":"imp2","modelInfo":"m"},"userId":"u"}"#,
            #"{"eventId":"e-full","eventType":"exposure","clientTimestampMs":1795100000000,"userId":"u","clientTimezoneOffsetMinutes":-720,"#
                + #""pageId":"home","pageInstanceId":"p1","itemId":"i1","impressionId":"imp1","modelInfo":"m","feedPosition":129,"#
                + #""visibleRatio":0.1,"dwellMs":1500}"#,
            #"{"eventId":"e-min","eventType":"exposure","clientTimestampMs":1795100000001,"userId":"u","pageInstanceId":"p2","itemId":"i2"}"#,
            #"{"eventId":"o-full","timestamp":1795100000000,"eventName":"view_loaded","sessionId":"s","userId":"u","#
                + #""properties":{"long":"\#(long)","n":0.1,"neg":-0,"flag":true}}"#,
            #"{"eventId":"o-min","timestamp":1795100000001,"eventName":"app_launch","sessionId":"s","userId":"u"}"#,
        ]
        let counts = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8),
                                                                                       name: "types.ndjson"), onRejection: { _, _ in })
        XCTAssertEqual(counts, IngestCounts(accepted: 8, duplicates: 0, rejected: 0))
        XCTAssertEqual(try client.query("SELECT * FROM reading_events ORDER BY event_id").rows, [
            [.text("r-full"), .text("u"), .text("s1"), .text("m1"), .text("heartbeat"), .int(1_795_100_000_000), .int(-720),
             .text("2026-11-19"), .int(-3), .int(3600), .double(0.1), .text(#"{"progress":0.1}"#),
             .text("knowledge_source"), .text(long), .text("kb"), .text("ios"), .text("1.0"), .text(#"{"more":1}"#)],
            [.text("r-min"), .text("u"), .null, .text("m2"), .text("material_opened"), .int(1_795_100_000_001), .int(0),
             .text("2026-11-19"), .null, .int(0), .null, .null, .text("knowledge_source"), .null, .null, .null, .null, .null],
        ])
        XCTAssertEqual(try client.query("SELECT * FROM feedback_events ORDER BY id").rows, [
            [.text("f-full"), .text("u"), .int(1_795_100_000_000), .int(840), .text("2026-11-20"), .text("dislike"), .text("R"),
             .text("imp1"), .text("m"), .int(300), .text("i1"), .text(#"{"businessPayload":{"itemId":"i1"},"feedPosition":300,"impressionId":"imp1","modelInfo":"m"}"#),
             .text("android"), .text("2"), .null],
            [.text("f-min"), .text("u"), .int(1_795_100_000_001), .int(0), .text("2026-11-19"), .text("like"), .null,
             .text("imp2"), .text("m"), .int(0), .null, .text(#"{"feedPosition":0,"impressionId":"imp2","modelInfo":"m"}"#),
             .null, .null, .null],
        ])
        XCTAssertEqual(try client.query("SELECT * FROM exposure_events ORDER BY event_id").rows, [
            [.text("e-full"), .text("u"), .int(1_795_100_000_000), .int(-720), .text("2026-11-19"), .text("home"), .text("p1"),
             .text("i1"), .text("imp1"), .text("m"), .int(129), .double(0.1), .int(1500), .null, .null, .null],
            [.text("e-min"), .text("u"), .int(1_795_100_000_001), .int(0), .text("2026-11-19"), .null, .text("p2"),
             .text("i2"), .null, .null, .null, .null, .null, .null, .null, .null],
        ])
        XCTAssertEqual(try client.query("""
            SELECT event_id, user_id, ts_ms, tz_minutes, local_date, event_name, session_id, properties,
                   arrayStringConcat(prop_keys, '|'), arrayStringConcat(prop_values, '|'),
                   arrayStringConcat(arrayMap(n -> ifNull(toString(n), 'NULL'), prop_numbers), '|'), platform, app_version, extra
            FROM observability_events ORDER BY event_id
            """).rows, [
            [.text("o-full"), .text("u"), .int(1_795_100_000_000), .int(0), .text("2026-11-19"), .text("view_loaded"), .text("s"),
             .text(#"{"long":"\#(long)","n":0.1,"neg":-0,"flag":true}"#), .text("long|n|neg|flag"), .text("\(long)|0.1|-0|true"),
             .text("NULL|0.1|0|NULL"), .null, .null, .null],
            [.text("o-min"), .text("u"), .int(1_795_100_000_001), .int(0), .text("2026-11-19"), .text("app_launch"), .text("s"),
             .text("{}"), .text(""), .text(""), .text(""), .null, .null, .null],
        ])
        XCTAssertEqual(try client.query("""
            SELECT family, key FROM (
                SELECT 'exposure' AS family, event_id AS key FROM exposure_events UNION ALL SELECT 'feedback', id FROM feedback_events
                UNION ALL SELECT 'observability', event_id FROM observability_events UNION ALL SELECT 'reading', event_id FROM reading_events)
            WHERE cityHash64(family, key) IN event_key_probe ORDER BY family, key
            """).rows.map { $0.compactMap(\.text) }, [
            ["exposure", "e-full"], ["exposure", "e-min"], ["feedback", "f-full"], ["feedback", "f-min"],
            ["observability", "o-full"], ["observability", "o-min"], ["reading", "r-full"], ["reading", "r-min"],
        ])
        // A second run finds every key stored (the lookup reads the keys' RowBinary rows as its external table).
        let again = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8),
                                                                                      name: "types.ndjson"), onRejection: { _, _ in })
        XCTAssertEqual(again, IngestCounts(accepted: 0, duplicates: 8, rejected: 0))
    }

    func testTextWithSeparatorsAndEscapesReadsBackUnchangedEverywhere() throws {
        let client = try TestServer.freshDatabase()
        defer { TestServer.drop(client) }
        try ClickHouseSchema.create(using: client)
        let lines = [
            #"{"eventId":"r1","userId":"u\tone","materialId":"m'1\\","eventType":"heartbeat","clientTimestampMs":1795100000000,"activeSecondsDelta":15,"#
                + #""title":"a\tb\nc\\d'e\r\u0000f 线","position":{"progress":0.125},"more":{"k":"v\tw"}}"#,
            #"{"eventId":"o1","timestamp":1795100000000,"eventName":"view_loaded","sessionId":"s\\1","userId":"u","#
                + #""properties":{"k'\t":"v\\'\n","n":-1.5e-7,"z":null,"list":[1,"x'"],"big":123456789012}}"#,
            #"{"id":"f1","timestamp":1795100000000,"feedbackType":"dislike","reason":"r\t1\n\\","#
                + #""context":{"feedPosition":2,"impressionId":"i\t1","modelInfo":"m\n1"},"userId":"u\tone"}"#,
            #"{"eventId":"e1","eventType":"exposure","clientTimestampMs":1795100000000,"userId":"u\tone","pageId":"p\r\\","#
                + #""pageInstanceId":"pi\n","itemId":"it\t","impressionId":"i\t1","modelInfo":"m\n1","feedPosition":2}"#,
            "{\"eventId\":\t\"bad\\t\",\"eventType\":\"exposure\"}",
        ]
        let counts = try ClickHouseIngestor(client: client).ingest(try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8),
                                                                                       name: "escapes.ndjson"), onRejection: { _, _ in })
        XCTAssertEqual(counts, IngestCounts(accepted: 4, duplicates: 0, rejected: 1))
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
        // The changes to the feed counters carry the same text.
        XCTAssertEqual(try client.query("""
            SELECT user_id, model_info, feed_position, reason, sum(reason_count) FROM dislike_user_reason_counts
            GROUP BY user_id, model_info, feed_position, reason
            """).rows, [[.text("u\tone"), .text("m\n1"), .int(2), .text("r\t1\n\\"), .int(1)]])
        XCTAssertEqual(try client.query("""
            SELECT dimension, group_value, sum(exposure_count) FROM exposure_user_groups WHERE user_id = 'u\\tone'
            GROUP BY dimension, group_value ORDER BY dimension
            """).rows, [[.text("day"), .text("2026-11-19"), .int(1)], [.text("item"), .text("it\t"), .int(1)],
                        [.text("model"), .text("m\n1"), .int(1)], [.text("page"), .text("p\r\\"), .int(1)],
                        [.text("position"), .text("2"), .int(1)]])
        XCTAssertEqual(try client.query("SELECT file, line, raw FROM rejected_lines").rows,
                       [[.text("escapes.ndjson"), .int(5), .text(lines[4])]])
    }
}
