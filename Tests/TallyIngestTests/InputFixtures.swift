import Foundation
import TallyIngest
import TallySupport
import XCTest

/// Helpers for the input-layer tests: reading records into values, temp files, gzip data.
enum InputFixtures {
    /// One record as a value.
    struct Cut: Equatable, CustomStringConvertible {
        var text: String
        var line: Int
        var index: Int?
        var malformed: Bool

        init(_ text: String, line: Int, index: Int? = nil, malformed: Bool = false) {
            self.text = text
            self.line = line
            self.index = index
            self.malformed = malformed
        }

        var description: String {
            "\(line)\(index.map { "#\($0)" } ?? "")\(malformed ? "!" : ""):\(text)"
        }
    }

    /// Every record of `reader`.
    static func cuts(of reader: EventFileReader) throws -> [Cut] {
        var cuts: [Cut] = []
        try reader.forEachRecord { record in
            cuts.append(Cut(String(decoding: record.bytes, as: UTF8.self), line: record.line, index: record.index,
                            malformed: record.malformed != nil))
        }
        return cuts
    }

    /// The format and records of `text` read from memory as `name`.
    static func read(_ text: String, name: String = "events.json", chunkSize: Int = 1 << 20,
                     maxRecordBytes: Int = 64 << 20) throws -> (EventFileReader.Format, [Cut]) {
        try read(Array(text.utf8), name: name, chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
    }

    /// The format and records of `bytes` read from memory as `name`.
    static func read(_ bytes: [UInt8], name: String = "events.json", chunkSize: Int = 1 << 20,
                     maxRecordBytes: Int = 64 << 20) throws -> (EventFileReader.Format, [Cut]) {
        let reader = try EventFileReader(bytes: bytes, name: name, chunkSize: chunkSize, maxRecordBytes: maxRecordBytes)
        return (reader.format, try cuts(of: reader))
    }

    /// Asserts that every chunk size from 1 to 17, and a large one, gives the same records.
    static func assertChunkingInvariant(_ bytes: [UInt8], name: String = "events.json",
                                        file: StaticString = #filePath, line: UInt = #line) throws -> [Cut] {
        let (format, whole) = try read(bytes, name: name)
        for size in 1...17 {
            let (f, cuts) = try read(bytes, name: name, chunkSize: size)
            XCTAssertEqual(f, format, "chunk size \(size)", file: file, line: line)
            XCTAssertEqual(cuts, whole, "chunk size \(size)", file: file, line: line)
        }
        return whole
    }

    /// A new empty directory under the temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tally-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `bytes` to `name` in a new temporary directory and returns the path.
    static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = try temporaryDirectory().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// One gzip member holding `bytes`.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        try! Gzip.compress(bytes)
    }

    /// `text`'s bytes, gzip-compressed when `compress`.
    static func gzipIf(_ compress: Bool, _ text: String) -> [UInt8] {
        compress ? gzip(Array(text.utf8)) : Array(text.utf8)
    }
}
