import Foundation
import TallyIngest
import XCTest

/// Where bytes come from: paths, descriptors, progress and whole-file errors.
final class InputSourceTests: XCTestCase {
    typealias Cut = InputFixtures.Cut

    func testDescriptorLikeStdin() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let text = "{\"a\":1}\n\n[\"not\",\"a batch\"]\n"
        let writer = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
        writer.write(Data(text.utf8))
        try writer.close()
        defer { close(fds[0]) }
        let reader = try EventFileReader(fileDescriptor: fds[0], name: "-", chunkSize: 3)
        XCTAssertEqual(reader.format, .ndjson)
        XCTAssertNil(reader.totalBytes)
        XCTAssertEqual(try InputFixtures.cuts(of: reader),
                       [Cut("{\"a\":1}", line: 1), Cut("[\"not\",\"a batch\"]", line: 3)])
        XCTAssertEqual(reader.bytesRead, text.utf8.count)
    }

    func testProgressGrowsDuringTheRead() throws {
        let text = String(repeating: "{\"eventId\":\"x\"}\n", count: 1000)
        let path = try InputFixtures.file("p.ndjson", Array(text.utf8))
        let reader = try EventFileReader(path: path, chunkSize: 1024)
        var seen: [Int] = []
        try reader.forEachRecord { _ in seen.append(reader.bytesRead) }
        XCTAssertEqual(reader.totalBytes, text.utf8.count)
        XCTAssertEqual(seen.first, 1024)
        XCTAssertEqual(seen.last, text.utf8.count)
        XCTAssertEqual(seen, seen.sorted())
    }

    func testBinaryFileIsNotEventData() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
        let path = try InputFixtures.file("photo.json", png)
        XCTAssertThrowsError(try EventFileReader(path: path)) { error in
            XCTAssertEqual(error as? EventFileError, .notText(file: path, offset: 0, byte: 0x89))
            XCTAssertEqual("\(error)", "\(path) is not JSON event data: byte 0 (0x89) is not UTF-8 text.")
        }
        let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0, 0]
        XCTAssertThrowsError(try InputFixtures.read(InputFixtures.gzip(elf), name: "a.out")) { error in
            XCTAssertEqual("\(error)", "a.out is not JSON event data: byte 7 is NUL, so the file is binary.")
        }
    }

    func testBinaryDataIsFoundWhateverTheReadSize() throws {
        // Found by fuzzing: the sniffed sample was one read, so a small read (a pipe) missed
        // the binary byte that a whole 64 KiB sample holds.
        var bytes = Array(String(repeating: "text ", count: 40).utf8)
        bytes.append(0)
        for chunkSize in [16, 64, 1 << 20] {
            XCTAssertThrowsError(try EventFileReader(bytes: bytes, name: "data", chunkSize: chunkSize), "chunk size \(chunkSize)") { error in
                XCTAssertEqual(error as? EventFileError, .notText(file: "data", offset: 200, byte: 0))
            }
        }
    }

    func testMissingFileAndDirectory() throws {
        XCTAssertThrowsError(try EventFileReader(path: "/nonexistent/events.ndjson")) { error in
            XCTAssertEqual("\(error)", "Cannot open /nonexistent/events.ndjson: No such file or directory.")
        }
        let directory = try InputFixtures.temporaryDirectory().path
        XCTAssertThrowsError(try EventFileReader(path: directory)) { error in
            XCTAssertEqual("\(error)", "Cannot read \(directory): Is a directory.")
        }
    }
}
