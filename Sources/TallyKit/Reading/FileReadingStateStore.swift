import Foundation

/// A ``ReadingStateStore`` in one small JSON file, `reading-session.json`, in a directory of
/// the app's.
///
/// Each save writes a temporary file next to it and renames it over the old one, so a crash
/// or kill mid-write leaves either the old record or the new one, never a torn file. Saves
/// are not fsynced: a process kill keeps them (the kernel has the data), a power loss may
/// lose the last few, and the session is then closed at an earlier checkpoint.
public struct FileReadingStateStore: ReadingStateStore {
    /// The record's file.
    public let fileURL: URL

    /// A store in `directory`, which is created if missing.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = directory.appendingPathComponent("reading-session.json")
    }

    /// The saved record; nil when there is no file. A file that cannot be decoded is an error
    /// naming it.
    public func load() throws -> ReadingSessionRecord? {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch CocoaError.fileReadNoSuchFile {
            return nil
        }
        do {
            return try JSONDecoder().decode(ReadingSessionRecord.self, from: data)
        } catch {
            throw ReadingStateError(path: fileURL.path, reason: "cannot be read as a reading session (\(error))")
        }
    }

    /// Writes `record` atomically (temporary file + rename); nil removes the file.
    public func save(_ record: ReadingSessionRecord?) throws {
        guard let record else {
            if unlink(fileURL.path) != 0 && errno != ENOENT {
                throw ReadingStateError(path: fileURL.path, reason: "cannot be removed (errno \(errno))")
            }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let temporary = fileURL.path + ".tmp"
        do {
            try encoder.encode(record).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw ReadingStateError(path: temporary, reason: "cannot be written (\(error))")
        }
        guard rename(temporary, fileURL.path) == 0 else {
            throw ReadingStateError(path: fileURL.path, reason: "cannot replace it (errno \(errno))")
        }
    }
}
