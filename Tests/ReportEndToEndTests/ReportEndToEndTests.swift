import Foundation
import TallyTestSupport
import XCTest

final class ReportEndToEndTests: XCTestCase {
    private var files: EventFiles!
    private var db: String!

    override func setUpWithError() throws {
        files = try EventFiles()
        db = files.path("t.sqlite")
        let input = try files.write("r.ndjson", (0..<40).map { EventFiles.reading($0, day: $0 % 10) }.joined(separator: "\n"))
        XCTAssertEqual(try ReportBinary.run(["ingest", input, "--db", db]).status, 0)
    }

    override func tearDown() {
        files = nil
    }

    private func report(_ arguments: [String]) throws -> ReportBinary.Result {
        try ReportBinary.run(arguments + ["--db", db] + (arguments.contains("--now") ? [] : ["--now", "2026-11-20T12:00:00Z"]))
    }

    func testEveryFormatOfTheSummary() throws {
        let json = try report(["summary", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(try json.json()["totalActiveSeconds"] as? Int, 600)
        let csv = try report(["summary", "--format", "csv"])
        XCTAssertTrue(csv.stdout.hasPrefix("totalActiveSeconds,"), csv.stdout)
        let table = try report(["summary"])
        XCTAssertEqual(table.status, 0)
        XCTAssertFalse(table.stdout.contains("\u{1B}["), "piped output carries no escape codes")
        let heatmap = try report(["heatmap", "--days", "365"])
        XCTAssertFalse(heatmap.stdout.contains("\u{1B}["))
        XCTAssertFalse(heatmap.stdout.isEmpty)
    }

    /// `--format ndjson`: one compact JSON object a line: each row of a grouped report or an
    /// ad hoc query, each day of the trend and the heatmap, the one object of a flat answer.
    func testNDJSONIsOneObjectALineForEveryKindOfAnswer() throws {
        let objects = { (result: ReportBinary.Result) throws -> [[String: Any]] in
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.hasSuffix("\n"), result.stdout)
            return try result.stdout.split(separator: "\n").map { line in
                XCTAssertFalse(line.contains(": ") || line.contains(", "), "compact: \(line)")
                return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            }
        }
        let summary = try objects(report(["summary", "--format", "ndjson"]))
        XCTAssertEqual(summary.count, 1)
        XCTAssertEqual(summary.first?["totalActiveSeconds"] as? Int, try report(["summary", "--format", "json"]).json()["totalActiveSeconds"] as? Int)

        let trend = try objects(report(["trend", "--days", "10", "--format", "ndjson"]))
        XCTAssertEqual(trend.count, 10)
        XCTAssertEqual(trend.compactMap { $0["activeSeconds"] as? Int }.reduce(0, +),
                       try report(["trend", "--days", "10", "--format", "json"]).json()["totalActiveSeconds"] as? Int)
        XCTAssertEqual(trend.last?["date"] as? String, "2026-11-20")
        let heatmap = try objects(report(["heatmap", "--days", "365", "--format", "ndjson"]))
        XCTAssertEqual(heatmap.count, 365)
        XCTAssertEqual(Set(heatmap.flatMap(\.keys)), ["date", "activeSeconds", "level"])

        let rows = try objects(report(["sql", "SELECT material_id AS m, count(*) AS n FROM reading_events GROUP BY 1 ORDER BY 1", "--format", "ndjson"]))
        let json = try report(["sql", "SELECT material_id AS m, count(*) AS n FROM reading_events GROUP BY 1 ORDER BY 1", "--format", "json"]).json()
        XCTAssertEqual(rows as NSArray, json["rows"] as? NSArray)
        let saved = try objects(report(["query", "queries/learning_days.sql", "--param", "user=u-1", "--format", "ndjson"]))
        XCTAssertEqual(Set(saved.first?.keys.map { $0 } ?? []), ["local_date", "active_seconds", "materials"])
        let none = try report(["sql", "SELECT 1 AS n WHERE 0", "--format", "ndjson"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertEqual(none.stdout, "", "no rows, no lines")

        let again = try files.write("again.ndjson", EventFiles.reading(0, day: 0))
        let counts = try objects(ReportBinary.run(["ingest", again, "--db", db, "--format", "ndjson"]))
        XCTAssertEqual(counts.count, 1)
        XCTAssertEqual(counts.first?["duplicates"] as? Int, 1)

        for command in ["summary", "ingest", "sql"] {
            let help = try ReportBinary.run([command, "--help"])
            XCTAssertTrue(help.stdout.contains("table, json, csv or ndjson"), "\(command): \(help.stdout)")
        }
    }

    func testBadFlagValuesAreUsageErrorsNamingTheFlag() throws {
        for (arguments, flag) in [(["trend", "--days", "0"], "--days"), (["summary", "--tz", "25:00"], "--tz"),
                                  (["exposures", "--by", "colour"], "--by"), (["summary", "--now", "yesterday"], "--now"),
                                  (["dislike-rate", "--position-buckets", "9-1"], "--position-buckets")] {
            let result = try report(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(flag), "\(arguments): \(result.stderr)")
        }
    }

    func testSavedAndAdHocQueriesAreReadOnlyInEveryFormat() throws {
        let saved = try report(["query", "queries/learning_days.sql", "--param", "user=u-1", "--format", "csv"])
        XCTAssertEqual(saved.status, 0, saved.stderr)
        XCTAssertTrue(saved.stdout.hasPrefix("local_date,active_seconds,materials"), saved.stdout)
        let adHoc = try report(["sql", "SELECT title, json_extract(extra, '$.debugTag') AS tag FROM reading_events LIMIT 1", "--format", "json"])
        XCTAssertTrue(adHoc.stdout.contains("线性代数"), adHoc.stdout)
        XCTAssertTrue(adHoc.stdout.contains(#""tag": "canary-"#) || adHoc.stdout.contains(#""tag":"canary-"#), "unknown fields stay queryable: \(adHoc.stdout)")
        let write = try report(["sql", "DELETE FROM reading_events"])
        XCTAssertNotEqual(write.status, 0)
        XCTAssertTrue(write.stderr.contains("read-only"), write.stderr)
        let count = try report(["sql", "SELECT count(*) AS n FROM reading_events", "--format", "json"])
        XCTAssertTrue(count.stdout.contains("40"), count.stdout)
    }

    func testAMissingStoreSaysHowToCreateIt() throws {
        let result = try ReportBinary.run(["summary", "--db", files.path("absent.sqlite")])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("report ingest"), result.stderr)
    }
}
