import Foundation
import TallyQuery
@testable import TallySQLite
import TallyTestSupport
import XCTest

/// `latency` reads the two members from the properties' text where it certainly reads them as
/// SQLite's JSON functions do, and asks SQLite for every other event: its answers are those of
/// reading every event with SQLite's JSON functions (the reference below), whatever the text.
final class LatencyReportTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-latency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - The scanner

    func testPlainPropertiesAreReadFromTheText() {
        XCTAssertEqual(read(#"{"view_name":"reader_view","load_duration_ms":337,"app_version":"2.3.0"}"#),
                       LatencyScanner.Reading(value: 337, group: .text(65..<70)))
        XCTAssertEqual(read(#" { "load_duration_ms" : -0 , "app_version" : 7 , "n" : {"a":[1,2.5e-3,true,null,"\u00e9"]} } "#),
                       LatencyScanner.Reading(value: 0, group: .int(7)))
        XCTAssertEqual(read(#"{"load_duration_ms":"12","app_version":null}"#), LatencyScanner.Reading(value: nil, group: .none))
        XCTAssertEqual(read(#"{"load_duration_ms":999999999999999999}"#), LatencyScanner.Reading(value: 999_999_999_999_999_999, group: .none))
        XCTAssertEqual(read("{}"), LatencyScanner.Reading(value: nil, group: .none))
    }

    func testAnythingElseIsLeftToSQLite() {
        for text in [
            #"{"load\u005fduration_ms":5}"#, #"{"load_duration_ms":1,"load_duration_ms":2}"#,
            #"{"app_version":"a","app_version":"b","load_duration_ms":1}"#, #"{"load_duration_ms":1.5}"#,
            #"{"load_duration_ms":1e3}"#, #"{"load_duration_ms":1000000000000000000}"#, #"{"load_duration_ms":true}"#,
            #"{"load_duration_ms":{"a":1}}"#, #"{"load_duration_ms":[1]}"#, #"{"load_duration_ms":1,"app_version":"2\u002e3"}"#,
            #"{"load_duration_ms":1,"app_version":2.0}"#, #"{"load_duration_ms":1,"app_version":false}"#,
            #"{"load_duration_ms":1,"app_version":[1]}"#, #"{"load_duration_ms":01}"#, #"{"load_duration_ms":1,}"#,
            #"{"load_duration_ms":1} x"#, #"[1]"#, #"5"#, "", #"{"load_duration_ms":1,"a":"\x"}"#,
            "{\"load_duration_ms\":1,\"a\":\"\u{1}\"}", "{\"load_duration_ms\":1}\u{0}", #"{"load_duration_ms":1,"a":nul}"#,
            #"{"load_duration_ms":1,"a":-}"#, #"{"load_duration_ms":1,"a":1.}"#,
            "{\"a\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + ",\"load_duration_ms\":1}",
        ] {
            XCTAssertNil(read(text), text)
        }
        XCTAssertNil(read(#"{"a\"b":1}"#, by: #"a"b"#))
        XCTAssertNil(read(#"{"load_duration_ms":1}"#, by: ""))
    }

    func testValuesSortAsSortedSortsThem() {
        var random = SplitMix64(seed: 7)
        let pool: [Double] = [0, -0.0, 1, -1, 0.5, -2.5, 1e300, -1e300, .infinity, -.infinity, 9_007_199_254_740_992, .leastNonzeroMagnitude]
        for count in [0, 1, 300, 5_000] {
            let values = (0..<count).map { _ -> Double in
                switch Int.random(in: 0..<3, using: &random) {
                case 0: Double(Int.random(in: 0..<20_000, using: &random))
                case 1: Double(bitPattern: random.next() & ~(1 << 62))
                default: pool.randomElement(using: &random)!
                }
            }
            let same = LatencyGroups.sorted(values).map { $0 == 0 ? 0 : $0 }
            XCTAssertEqual(same, values.sorted().map { $0 == 0 ? 0 : $0 })
            XCTAssertEqual(LatencyGroups.sorted(values).map(\.bitPattern).sorted(), values.map(\.bitPattern).sorted())
        }
    }

    // MARK: - Against SQLite's JSON functions

    func testHandWrittenPropertiesAnswerAsSQLiteReadsThem() throws {
        let rows = [
            #"{"view_name":"reader_view","load_duration_ms":337,"app_version":"2.3.0"}"#,
            #"{"view_name":"reader_view","load_duration_ms":338,"appVersion":"2.4.0"}"#,
            #"{"load_duration_ms":1,"load_duration_ms":2,"view_name":"dup"}"#,
            #"{"view_name":"a","view_name":"b","load_duration_ms":3}"#,
            #"{"load\u005fduration_ms":4,"view_name":"escaped key"}"#,
            #"{"load_duration_ms":5,"view\u005fname":"escaped group key"}"#,
            #"{"load_duration_ms":6,"view_name":"tab\there \u00e9 \ud83d\ude00 \"q\""}"#,
            #"{"load_duration_ms":7,"view_name":"reader\u005fview"}"#,
            #"{"load_duration_ms":1.5,"view_name":"fraction"}"#, #"{"load_duration_ms":2.5e2,"view_name":"exponent"}"#,
            #"{"load_duration_ms":-0,"view_name":"minus zero"}"#, #"{"load_duration_ms":-0.0,"view_name":"minus zero"}"#,
            #"{"load_duration_ms":1E2,"view_name":"E"}"#, #"{"load_duration_ms":0.1,"view_name":"tenth"}"#,
            #"{"load_duration_ms":123456789012345678,"view_name":"big"}"#,
            #"{"load_duration_ms":1234567890123456789,"view_name":"bigger"}"#,
            #"{"load_duration_ms":9223372036854775807,"view_name":"max"}"#,
            #"{"load_duration_ms":9223372036854775808,"view_name":"beyond"}"#,
            #"{"load_duration_ms":123456789012345678901234567890,"view_name":"huge"}"#,
            #"{"load_duration_ms":1e999,"view_name":"inf"}"#, #"{"load_duration_ms":-1e999,"view_name":"inf"}"#,
            #"{"load_duration_ms":true,"view_name":"true"}"#, #"{"load_duration_ms":false,"view_name":"false"}"#,
            #"{"load_duration_ms":null,"view_name":"null"}"#, #"{"load_duration_ms":"42","view_name":"string"}"#,
            #"{"load_duration_ms":{"v":1},"view_name":"object"}"#, #"{"load_duration_ms":[1,2],"view_name":"array"}"#,
            #"{"load_duration_ms":8,"view_name":1e999}"#, #"{"load_duration_ms":9,"view_name":-1e999}"#,
            #"{"load_duration_ms":10,"view_name":2.0}"#, #"{"load_duration_ms":11,"view_name":2}"#,
            #"{"load_duration_ms":12,"view_name":-0}"#, #"{"load_duration_ms":13,"view_name":0.5}"#,
            #"{"load_duration_ms":14,"view_name":true}"#, #"{"load_duration_ms":15,"view_name":false}"#,
            #"{"load_duration_ms":16,"view_name":null}"#, #"{"load_duration_ms":17,"view_name":{"b":1,"a":[1, 2]}}"#,
            #"{"load_duration_ms":18,"view_name":[ "x" ]}"#, #"{"load_duration_ms":19,"view_name":""}"#,
            #"{"load_duration_ms":20,"view_name":12345678901234567890}"#, #"{"load_duration_ms":21}"#,
            #"{"load_duration_ms":22,"app_version":null}"#, #"{"load_duration_ms":23,"appVersion":null}"#,
            #"{"load_duration_ms":24,"app_version":"2.3.0","appVersion":"9"}"#, #"{"load_duration_ms":25,"app_version":3}"#,
            #"{"load_duration_ms":26,"nested":{"load_duration_ms":1000,"view_name":"inner"},"view_name":"outer"}"#,
            #"  {"load_duration_ms" :27 ,"view_name": "spaces"}  "#, "{\"load_duration_ms\":\n28,\r\n\"view_name\":\"lines\"}",
            #"[{"load_duration_ms":29}]"#, #"30"#, #""text""#, #"{}"#,
        ]
        let store = try makeStore(rows.enumerated().flatMap { index, properties in
            [Event(user: "u\(index % 3)", properties: properties, appVersion: index % 4 == 0 ? .null : .text("2.\(index % 5).0")),
             Event(user: "u9", properties: properties, appVersion: .int(Int64(index % 2)))]
        })
        try assertSameAnswers(store, fields: ["load_duration_ms", "view_name", "nested"],
                              bys: ["view_name", "app_version", "appVersion", "load_duration_ms", "nested", "absent"],
                              users: [nil, "u1", "u9", "nobody"])
    }

    func testGeneratedPropertiesAnswerAsSQLiteReadsThem() throws {
        var random = SplitMix64(seed: 20_261_126)
        let keys = [#""load_duration_ms""#, #""app_version""#, #""appVersion""#, #""view_name""#, #""load\u005fduration_ms""#,
                    #""view\u005fname""#, #""x""#]
        let values = ["0", "-0", "1", "337", "-12", "1.5", "2e3", "-0.0", "1E2", "123456789012345678", "1234567890123456789",
                      "9223372036854775807", "9223372036854775808", "1e999", "true", "false", "null", #""2.3.0""#, #""reader_view""#,
                      #""a\"b""#, #""\u00e9""#, #""é""#, #""""#, #"{"load_duration_ms":5}"#, "[1,2]", "[]", "{}", #""337""#]
        let spaces = ["", " ", "\n", "\t "]
        func pick(_ texts: [String]) -> String {
            texts.randomElement(using: &random)!
        }
        var events: [Event] = []
        for index in 0..<3_000 {
            let members = (0..<Int.random(in: 0..<5, using: &random)).map { _ in
                pick(spaces) + pick(keys) + pick(spaces) + ":" + pick(spaces) + pick(values)
            }
            let properties = pick(spaces) + "{" + members.joined(separator: ",") + pick(spaces) + "}"
            let version: SQLValue = [.null, .text("2.3.0"), .text("2.4.0"), .text("")][Int.random(in: 0..<4, using: &random)]
            events.append(Event(user: "u\(index % 7)", properties: properties, appVersion: version))
        }
        let store = try makeStore(events)
        try assertSameAnswers(store, fields: ["load_duration_ms", "app_version", "view_name"],
                              bys: ["app_version", "appVersion", "view_name", "load_duration_ms", "x"], users: [nil, "u3"])
    }

    func testInvalidUTF8GroupsAsSQLiteRowsReadIt() throws {
        let store = try makeStore([])
        let insert = try store.database.prepare("""
            INSERT INTO observability_events (event_id, user_id, ts_ms, tz_minutes, local_date, event_name, session_id, properties, app_version)
            VALUES (?1, 'u', 0, 0, '2026-11-20', 'view_loaded', 's', CAST(?2 AS TEXT), CAST(?3 AS TEXT))
            """)
        let texts: [([UInt8], [UInt8])] = [
            (Array(#"{"load_duration_ms":1,"view_name":""#.utf8) + [0xFF] + Array(#""}"#.utf8), [0xFE]),
            (Array(#"{"load_duration_ms":2,"view_name":""#.utf8) + [0xFE] + Array(#""}"#.utf8), [0xFF]),
            (Array(#"{"load_duration_ms":3,"view_name":""#.utf8) + [0xEF, 0xBF, 0xBD] + Array(#""}"#.utf8), [0xC3]),
            (Array(#"{"load_duration_ms":4}"#.utf8), [0xC3, 0xA9]),
        ]
        for (index, (properties, version)) in texts.enumerated() {
            try insert.bind([.text("e\(index)")])
            properties.withUnsafeBytes { insert.bindBlob($0, at: 2) }
            version.withUnsafeBytes { insert.bindBlob($0, at: 3) }
            try insert.run()
        }
        try store.database.execute("INSERT INTO event_name_days VALUES ('view_loaded', '2026-11-20')")
        try assertSameAnswers(store, fields: ["load_duration_ms"], bys: ["view_name", "app_version"], users: [nil])
        let answer = try SQLiteReports(store: store).latency(event: "view_loaded", field: "load_duration_ms", by: "view_name")
        XCTAssertEqual(answer.rows.first.map { Array($0.prefix(2)) }, [.text("\u{FFFD}"), .int(3)])
    }

    func testTextSQLiteCannotReadFailsAsItDoes() throws {
        let malformed = try makeStore([Event(user: "u", properties: #"{"load_duration_ms":1,}"#, appVersion: .null)])
        XCTAssertThrowsError(try reference(malformed, field: "load_duration_ms", by: "app_version", user: nil))
        XCTAssertThrowsError(try SQLiteReports(store: malformed).latency(event: "view_loaded", field: "load_duration_ms", by: "app_version"))
        let smallest = try makeStore([Event(user: "u", properties: #"{"load_duration_ms":-9223372036854775808}"#, appVersion: .null)])
        XCTAssertThrowsError(try reference(smallest, field: "load_duration_ms", by: "app_version", user: nil))
        XCTAssertThrowsError(try SQLiteReports(store: smallest).latency(event: "view_loaded", field: "load_duration_ms", by: "app_version"))
    }

    func testNamesThatAreNoPlainKeyAreLeftToSQLite() throws {
        let store = try makeStore([#"{"load_duration_ms":1,"a\"b":"x"}"#, #"{"load_duration_ms":2,"":"empty"}"#,
                                   #"{"a\"b":3,"a":4,"":5}"#].map { Event(user: "u", properties: $0, appVersion: .text("2.3.0")) })
        try assertSameAnswers(store, fields: ["load_duration_ms", #"a"b"#, "", "a"], bys: [#"a"b"#, "", "a", "app_version"], users: [nil])
    }

    func testNoEventsAnswerNoRows() throws {
        let store = try makeStore([Event(user: "u", properties: #"{"load_duration_ms":"slow"}"#, appVersion: .text("2.3.0"))])
        let reports = SQLiteReports(store: store)
        XCTAssertEqual(try reports.latency(event: "view_loaded", field: "load_duration_ms", by: "app_version").rows, [])
        XCTAssertEqual(try reports.latency(event: "nothing", field: "load_duration_ms", by: "app_version").rows, [])
        XCTAssertEqual(try reports.latency(event: "view_loaded", field: "load_duration_ms", by: "app_version", user: "nobody").rows, [])
    }

    // MARK: - Helpers

    /// An observability event named `view_loaded`.
    private struct Event {
        var user: String
        var properties: String
        var appVersion: SQLValue
    }

    private func read(_ text: String, field: String = "load_duration_ms", by: String = "app_version") -> LatencyScanner.Reading? {
        var text = text
        return text.withUTF8 { LatencyScanner(field: field, by: by).read($0) }
    }

    private func makeStore(_ events: [Event]) throws -> EventStore {
        let store = try EventStore(path: directory.appendingPathComponent("\(UUID().uuidString).sqlite").path)
        let insert = try store.database.prepare("""
            INSERT INTO observability_events (event_id, user_id, ts_ms, tz_minutes, local_date, event_name, session_id, properties, app_version)
            VALUES (?, ?, ?, 0, ?, 'view_loaded', 's', ?, ?)
            """)
        for (index, event) in events.enumerated() {
            let date = "2026-11-\(10 + index % 3)"
            try insert.bind([.text("e\(index)"), .text(event.user), .int(Int64(index)), .text(date), .text(event.properties), event.appVersion])
            try insert.run()
        }
        try store.database.execute("INSERT OR IGNORE INTO event_name_days SELECT DISTINCT event_name, local_date FROM observability_events")
        return store
    }

    /// Asserts that `latency` answers as the reference for each question, or fails where it fails.
    private func assertSameAnswers(_ store: EventStore, fields: [String], bys: [String], users: [String?],
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let reports = SQLiteReports(store: store)
        for field in fields {
            for by in bys {
                for user in users {
                    let question = "--field \(field) --by \(by) --user \(user ?? "(all)")"
                    guard let expected = try? reference(store, field: field, by: by, user: user) else {
                        XCTAssertThrowsError(try reports.latency(event: "view_loaded", field: field, by: by, user: user), question,
                                             file: file, line: line)
                        continue
                    }
                    let answer = try reports.latency(event: "view_loaded", field: field, by: by, user: user)
                    XCTAssertEqual(answer.columns, expected.columns, file: file, line: line)
                    XCTAssertEqual(Self.tiesInOneOrder(answer.rows), Self.tiesInOneOrder(expected.rows),
                                   question, file: file, line: line)
                }
            }
        }
    }

    /// `rows` with each run of groups that the report's order ties (an integer and a double of
    /// the same double value, such as 9223372036854775807 and 9223372036854775808.0) in one order:
    /// the report leaves their order to the order of its hash table.
    private static func tiesInOneOrder(_ rows: [[ReportValue]]) -> [[ReportValue]] {
        func number(_ value: ReportValue?) -> Double? {
            switch value {
            case .int(let x): Double(x)
            case .double(let x): x
            default: nil
            }
        }
        var result: [[ReportValue]] = []
        var run: [[ReportValue]] = []
        for row in rows {
            if let last = run.last, number(last.first) == nil || number(last.first) != number(row.first) {
                result += run.sorted { "\($0)" < "\($1)" }
                run = []
            }
            run.append(row)
        }
        return result + run.sorted { "\($0)" < "\($1)" }
    }

    /// `latency` as SQLite's JSON functions answer it: every event's value and group read by
    /// them, grouped and ranked as the report does.
    private func reference(_ store: EventStore, field: String, by: String, user: String?) throws -> GroupedReport {
        let statement = try store.database.prepare(Self.referenceSQL)
        try statement.bind(named: ["event": .text("view_loaded"), "field": .text(field), "by": .text(by), "user": user.map(SQLValue.text) ?? .null])
        var groups: [SQLValue: [Double]] = [:]
        while try statement.step() {
            groups[SQLiteReports.groupKey(statement.value(0)), default: []].append(statement.double(1))
        }
        let rows = groups.sorted { SQLiteReports.precedes($0.key, $1.key) }.map { group, values -> [ReportValue] in
            let sorted = values.sorted()
            return [ReportValue(group), .int(Int64(sorted.count))] + [50, 90, 99, 100].map { ReportLogic.nearestRank($0, of: sorted) }
        }
        return GroupedReport(columns: ReportLogic.latencyColumns(field: field, by: by), rows: rows)
    }

    /// Every event's group and value read by SQLite's JSON functions.
    private static let referenceSQL = """
        SELECT group_key, value FROM (
            SELECT coalesce(CASE WHEN json_type(properties, '$."' || :by || '"') = 'real'
                                      AND abs(json_extract(properties, '$."' || :by || '"')) > 1.7976931348623157e308
                                 THEN properties -> ('$."' || :by || '"')
                                 ELSE json_extract(properties, '$."' || :by || '"') END,
                            CASE WHEN :by IN ('appVersion', 'app_version') THEN app_version END) AS group_key,
                   json_extract(properties, '$."' || :field || '"') AS value
            FROM observability_events
            WHERE event_name = :event AND (:user IS NULL OR user_id = :user)
        )
        WHERE typeof(value) IN ('integer', 'real') AND abs(value) <= 1.7976931348623157e308
        """
}
