import TallyIngest
import XCTest

/// Gzip input: by name or by signature, single and multi-member, damaged.
final class InputGzipTests: XCTestCase {
    typealias Cut = InputFixtures.Cut

    func testSingleMemberFile() throws {
        let text = "\u{FEFF}{\"a\":1}\r\n\r\n{\"b\":2}\r\n"
        let gz = InputFixtures.gzip(Array(text.utf8))
        let path = try InputFixtures.file("events.ndjson.gz", gz)
        for size in [1, 5, 1 << 20] {
            let reader = try EventFileReader(path: path, chunkSize: size)
            XCTAssertEqual(try InputFixtures.cuts(of: reader), [Cut("{\"a\":1}", line: 1), Cut("{\"b\":2}", line: 3)])
            XCTAssertEqual(reader.bytesRead, gz.count)
            XCTAssertEqual(reader.totalBytes, gz.count)
        }
    }

    func testMultiMemberBatchDetectedBySignature() throws {
        let gz = InputFixtures.gzip(Array("[{\"a\":1},\n{\"b\":".utf8)) + InputFixtures.gzip([])
            + InputFixtures.gzip(Array("2}]\n".utf8))
        let cuts = try InputFixtures.assertChunkingInvariant(gz, name: "upload.bin")
        XCTAssertEqual(try InputFixtures.read(gz, name: "upload.bin").0, .batchArray)
        XCTAssertEqual(cuts, [Cut("{\"a\":1}", line: 1, index: 0), Cut("{\"b\":2}", line: 2, index: 1)])
    }

    func testMultiMemberFileMatchesGzipTool() throws {
        let directory = try InputFixtures.temporaryDirectory()
        let plain = (0..<5000).map { #"{"eventId":"e-\#($0)"}"# }.joined(separator: "\n")
        let parts = [plain.prefix(40_000), plain.dropFirst(40_000)].map { InputFixtures.gzip(Array($0.utf8)) }
        let path = directory.appendingPathComponent("events.ndjson.gz").path
        try Data(parts[0] + parts[1]).write(to: URL(fileURLWithPath: path))
        let reader = try EventFileReader(path: path, chunkSize: 1000)
        let cuts = try InputFixtures.cuts(of: reader)
        XCTAssertEqual(cuts.map(\.text), plain.split(separator: "\n").map(String.init))
        XCTAssertEqual(cuts.last?.line, 5000)
    }

    func testCorruptGzipNamesTheOffset() throws {
        var gz = InputFixtures.gzip(Array(String(repeating: "{\"a\":1}\n", count: 100).utf8))
        gz[12] ^= 0xFF
        XCTAssertThrowsError(try InputFixtures.read(gz, name: "bad.gz")) { error in
            guard case EventFileError.corruptGzip(let file, let offset, _) = error else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(file, "bad.gz")
            XCTAssertGreaterThanOrEqual(offset, 10)
            XCTAssertTrue("\(error)".hasPrefix("bad.gz is corrupt gzip data at byte \(offset)"), "\(error)")
        }
    }

    func testTruncatedGzip() throws {
        let gz = InputFixtures.gzip(Array(String(repeating: "{\"a\":1}\n", count: 100).utf8))
        XCTAssertThrowsError(try InputFixtures.read(Array(gz.dropLast(5)), name: "cut.ndjson.gz")) { error in
            XCTAssertEqual(error as? EventFileError, .truncatedGzip(file: "cut.ndjson.gz", offset: gz.count - 5))
        }
    }

    func testGarbageAfterAMemberIsNamedAsSuch() throws {
        let member = InputFixtures.gzip(Array("{\"a\":1}\n".utf8))
        XCTAssertThrowsError(try InputFixtures.read(member + Array("junk".utf8), name: "x.gz")) { error in
            XCTAssertEqual(error as? EventFileError, .trailingGarbage(file: "x.gz", offset: member.count))
        }
    }

    func testGzNameWithoutSignature() throws {
        XCTAssertThrowsError(try InputFixtures.read("{\"a\":1}\n", name: "plain.ndjson.gz")) { error in
            XCTAssertEqual(error as? EventFileError, .notGzip(file: "plain.ndjson.gz"))
            XCTAssertEqual("\(error)", "plain.ndjson.gz is not gzip data: it does not start with the gzip signature 1f 8b.")
        }
    }
}
