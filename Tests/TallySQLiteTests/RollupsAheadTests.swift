import Foundation
import TallyEvents
import TallyIngest
@testable import TallySQLite
import TallyTestSupport
import XCTest

/// `ingest(file:)` adds up each batch's rollups on its reading thread, every event taken as new;
/// these tests hold it to the rows that storing the same records one by one gives.
final class RollupsAheadTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-ahead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// `count` records of every family over a few users, materials, page instances and
    /// impressions, with an invalid line every 97th.
    private func lines(_ count: Int, from first: Int) -> [String] {
        (first..<first + count).map { n in
            let user = "u\(n % 5)", ts = 1_700_000_000_000 + Int64(n % 37) * 3_600_000 + Int64(n)
            let impression = "imp\(n % 11)", model = "rec-v\(n % 3)", position = n % 4
            if n % 97 == 0 { return #"{"eventId":"bad\#(n)"}"# }
            switch n % 4 {
            case 0:
                return #"{"eventId":"r\#(n)","userId":"\#(user)","materialId":"m\#(n % 7)","eventType":"\#(n % 9 == 0 ? "markedAsRead" : "heartbeat")","clientTimestampMs":\#(ts),"activeSecondsDelta":\#(n % 13),"clientTimezoneOffsetMinutes":\#([480, -300, 0][n % 3])}"#
            case 1:
                let kind = ["like", "dislike", "neutral"][n % 3]
                let reason = kind == "dislike" ? #","reason":"low quality""# : ""
                return #"{"id":"f\#(n)","userId":"\#(user)","timestamp":\#(ts),"feedbackType":"\#(kind)"\#(reason),"context":{"impressionId":"\#(impression)","modelInfo":"\#(model)","feedPosition":\#(position)}}"#
            case 2:
                return #"{"eventId":"x\#(n)","eventType":"exposure","userId":"\#(user)","pageId":"home","pageInstanceId":"p\#(n % 6)","itemId":"i\#(n % 8)","impressionId":"\#(impression)","modelInfo":"\#(model)","feedPosition":\#(position),"clientTimestampMs":\#(ts)}"#
            default:
                return #"{"eventId":"o\#(n)","timestamp":\#(ts),"eventName":"app_launch","sessionId":"s","userId":"\#(user)","properties":{}}"#
            }
        }
    }

    private func write(_ lines: [String], _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every row of every table of the store at `path` but the migrations' (their times
    /// differ), table by table, each table's rows sorted.
    private func rows(_ path: String) throws -> [String: [String]] {
        let database = try EventStore(path: path).database
        let tables = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'tally_migrations'").allRows()
        var rows: [String: [String]] = [:]
        for case .text(let table) in tables.map({ $0[0] }) {
            rows[table] = try database.prepare("SELECT * FROM \"\(table)\"").allRows().map { "\($0)" }.sorted()
        }
        return rows
    }

    /// Stores the records of `files` one by one (the rollups added up on the storing thread).
    private func storeOneByOne(_ files: [(path: String, lines: [String])], into path: String, batchSize: Int) throws {
        let ingestor = try Ingestor(store: try EventStore(path: path), batchSize: batchSize)
        for file in files {
            try ingestor.store(lines: file.lines, file: file.path, groupSize: batchSize)
        }
    }

    func testAFileSentAgainInPartGivesTheRowsOfEachEventStoredOnce() throws {
        let first = lines(3_000, from: 0)
        // Half the first file again, shuffled in with new records and with copies of its own.
        let new = lines(2_500, from: 3_000)
        var second: [String] = []
        for (i, line) in new.enumerated() {
            second.append(line)
            if i % 2 == 0 { second.append(first[(i * 7) % first.count]) }
            if i % 50 == 0 { second.append(new[i / 2]) }
        }
        let files = [(try write(first, "first.ndjson"), first), (try write(second, "second.ndjson"), second)]
        // Batches that commit one by one, and several batches to a commit.
        for (batchSize, perCommit) in [(20_000, 20_000), (2_500, 2_500), (7, 7), (7, 1_000), (600, 250_000)] {
            let ahead = directory.appendingPathComponent("ahead-\(batchSize)-\(perCommit).sqlite").path
            let ingestor = try Ingestor(store: try EventStore(path: ahead), batchSize: batchSize)
            ingestor.recordsPerCommit = perCommit
            var counts: [IngestCounts] = []
            for (path, _) in files {
                counts.append(try ingestor.ingest(file: path, onRejection: { _, _ in }))
            }
            XCTAssertEqual(counts[0].duplicates, 0)
            XCTAssertGreaterThan(counts[1].duplicates, 1_000)
            let oneByOne = directory.appendingPathComponent("one-\(batchSize)-\(perCommit).sqlite").path
            try storeOneByOne(files, into: oneByOne, batchSize: batchSize)
            let expected = try rows(oneByOne), actual = try rows(ahead)
            XCTAssertEqual(Set(actual.keys), Set(expected.keys))
            for (table, expectedRows) in expected {
                XCTAssertEqual(actual[table], expectedRows, "\(table), batches of \(batchSize), \(perCommit) a commit")
            }
        }
    }
}
