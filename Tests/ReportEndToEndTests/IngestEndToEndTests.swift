import Foundation
import TallyTestSupport
import XCTest

final class IngestEndToEndTests: XCTestCase {
    func testEveryInputShapeLoadsAndARerunOnlyFindsDuplicates() throws {
        let files = try EventFiles()
        let ndjson = try files.write("a.ndjson", "\u{FEFF}" + (0..<10).map { EventFiles.reading($0) }.joined(separator: "\r\n") + "\r\n\r\n")
        let gz = try files.writeGzip("b.ndjson", (10..<20).map { EventFiles.reading($0) }.joined(separator: "\n"))
        let array = try files.write("c.json", "[" + (20..<25).map { EventFiles.reading($0) }.joined(separator: ",\n") + "]")
        let object = try files.write("d.json", #"{"batchId":"x","events":["# + (25..<30).map { EventFiles.reading($0) }.joined(separator: ",") + "]}")
        let bad = try files.write("e.ndjson", EventFiles.reading(0) + "\nnot json\n" + #"{"eventId":"z","materialId":"m","eventType":"heartbeat","clientTimestampMs":1,"activeSecondsDelta":-5}"# + "\n")
        let db = files.path("t.sqlite")
        let first = try ReportBinary.run(["ingest", ndjson, gz, array, object, bad, "--db", db, "--format", "json"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let counts = try first.json()
        XCTAssertEqual(counts["accepted"] as? Int, 30)
        XCTAssertEqual(counts["duplicates"] as? Int, 1)
        XCTAssertEqual(counts["rejected"] as? Int, 2)
        XCTAssertTrue(first.stderr.contains("e.ndjson:2: INVALID_JSON"), first.stderr)
        XCTAssertTrue(first.stderr.contains("e.ndjson:3: INVALID_ACTIVE_SECONDS"), first.stderr)

        let again = try ReportBinary.run(["ingest", ndjson, gz, array, object, bad, "--db", db, "--format", "json"])
        XCTAssertEqual(try again.json()["accepted"] as? Int, 0)
        XCTAssertEqual(try again.json()["duplicates"] as? Int, 31)

        let rejected = try ReportBinary.run(["rejected", "--db", db, "--format", "csv"])
        XCTAssertEqual(rejected.stdout.split(whereSeparator: \.isNewline).count, 3, "a header and two lines, not four: \(rejected.stdout)")
    }

    func testStandardInputIsAFile() throws {
        let files = try EventFiles()
        let db = files.path("t.sqlite")
        let text = (0..<4).map { EventFiles.reading($0) }.joined(separator: "\n")
        let result = try ReportBinary.run(["ingest", "-", "--db", db, "--format", "json"], stdin: Data(text.utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try result.json()["accepted"] as? Int, 4)
    }

    func testATruncatedGzipKeepsItsWholeLinesAndTheNextFilesStillLoad() throws {
        let files = try EventFiles()
        let gz = try files.writeGzip("cut.ndjson", (0..<4000).map { EventFiles.reading($0) }.joined(separator: "\n"))
        let whole = try Data(contentsOf: URL(fileURLWithPath: gz))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: gz))
        let next = try files.write("next.ndjson", (4000..<4010).map { EventFiles.reading($0) }.joined(separator: "\n"))
        let result = try ReportBinary.run(["ingest", gz, next, "--db", files.path("t.sqlite"), "--format", "json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(gz) is truncated gzip data"), result.stderr)
        XCTAssertTrue(result.stderr.contains("1 of 2 files could not be read to the end: \(gz)."), result.stderr)
        let accepted = try XCTUnwrap(try result.json()["accepted"] as? Int)
        XCTAssertGreaterThan(accepted, 1000, "the whole lines before the cut are stored")
        XCTAssertLessThan(accepted, 4010)
        let stored = try ReportBinary.run(["sql", "SELECT count(*) AS n FROM reading_events WHERE event_id IN ('r-4000', 'r-4009')",
                                           "--db", files.path("t.sqlite"), "--format", "csv"])
        XCTAssertTrue(stored.stdout.contains("2"), stored.stdout)
    }

    func testUnreadableInputsAndStoresFailWithOneSentence() throws {
        let files = try EventFiles()
        let db = files.path("t.sqlite")
        let missing = try ReportBinary.run(["ingest", files.path("nope.ndjson"), "--db", db])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("nope.ndjson"), missing.stderr)

        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png.append(Data((0..<256).map { UInt8($0) }))
        try png.write(to: URL(fileURLWithPath: files.path("picture.json")))
        let binary = try ReportBinary.run(["ingest", files.path("picture.json"), "--db", db])
        XCTAssertNotEqual(binary.status, 0)
        XCTAssertTrue(binary.stderr.contains("picture.json"), binary.stderr)

        let good = try files.write("g.ndjson", EventFiles.reading(1))
        let unwritable = try ReportBinary.run(["ingest", good, "--db", files.directory.path])
        XCTAssertNotEqual(unwritable.status, 0)
        XCTAssertTrue(unwritable.stderr.contains("store"), unwritable.stderr)
    }

    /// Kills the ingest at several moments, then re-runs it: the store converges to a clean run's answers.
    func testKillNineMidIngestThenRerunConverges() throws {
        let files = try EventFiles()
        var text = ""
        for i in 0..<150_000 {
            text += EventFiles.reading(i, user: "u-\(i % 7)", day: i % 90, delta: i % 30) + "\n"
        }
        let input = try files.write("big.ndjson", text)
        let clean = files.path("clean.sqlite")
        XCTAssertEqual(try ReportBinary.run(["ingest", input, "--db", clean]).status, 0)

        let killed = files.path("killed.sqlite")
        for delay in [0.05, 0.3, 0.8] {
            let process = try ReportBinary.start(["ingest", input, "--db", killed])
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let rerun = try ReportBinary.run(["ingest", input, "--db", killed, "--format", "json"])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let rerunCounts = try rerun.json()
        XCTAssertEqual((rerunCounts["accepted"] as? Int ?? 0) + (rerunCounts["duplicates"] as? Int ?? 0), 150_000)

        for question in [["summary"], ["heatmap", "--days", "120"], ["sql", "SELECT count(*), sum(active_seconds) FROM reading_events"],
                         ["sql", "SELECT * FROM material_state ORDER BY user_id, material_id"]] {
            let arguments = question + ["--now", "2026-11-20T12:00:00Z", "--format", "json"]
            let expected = try ReportBinary.run(arguments + ["--db", clean])
            let got = try ReportBinary.run(arguments + ["--db", killed])
            XCTAssertEqual(expected.status, 0, expected.stderr)
            XCTAssertEqual(got.stdout, expected.stdout, "\(question)")
        }
    }
}
