import Foundation
import TallyKit
import Testing

struct FileReadingStateStoreTests {
    private let record = ReadingSessionRecord(
        sessionId: "s-1", material: ReadingMaterial(materialId: "tmp-9", targetType: .temporaryFile, title: "讲义"),
        nextSequence: 7, accountedToMs: 1_763_700_000_000, unsentActiveMs: 4_200, paused: true,
        backgroundSinceMs: 1_763_700_001_000, position: ReadingPosition(page: 12, pageCount: 10, anchor: "p12"))

    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("reading-\(UUID().uuidString)")
    }

    @Test func savesAndLoadsARecord() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileReadingStateStore(directory: directory)
        #expect(try store.load() == nil)
        try store.save(record)
        #expect(try store.load() == record)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["reading-session.json"])
        try store.save(nil)
        try store.save(nil)
        #expect(try store.load() == nil)
    }

    @Test func aPositionReadBackIsNormalisedAgain() throws {
        #expect(record.position?.progress == 1)
        let json = Data(#"{"page":3,"pageCount":10,"progress":7}"#.utf8)
        #expect(try JSONDecoder().decode(ReadingPosition.self, from: json).progress == 1)
    }

    @Test func aDirectoryThatCannotBeCreatedIsAnError() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data().write(to: directory)
        #expect(throws: (any Error).self) { try FileReadingStateStore(directory: directory.appendingPathComponent("x")) }
    }
}
