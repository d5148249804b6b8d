#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// Appends batches to an NDJSON file that `report ingest` reads as is (one event a line).
///
/// Each batch is appended with one `write` and synced before the batch counts as delivered.
/// A kill during the write can leave the last line cut short: the next append first truncates
/// the file back to its last line end, so the file only ever ends in a partial line until the
/// next batch (`ingest` would report that one line as `INVALID_JSON`). Lines of an interrupted
/// batch that did land are written again by the retry; `ingest` skips them as duplicates.
public struct NDJSONFileTransport: UploadTransport {
    /// The file appended to (created when missing).
    public let path: String

    /// A transport appending to `path`.
    public init(path: String) {
        self.path = path
    }

    /// Appends the batch; 200 once synced, a thrown error (retried) when the file system refuses.
    public func send(_ request: UploadRequest) async throws -> UploadResponse {
        let descriptor = try POSIXFile.open(path, O_RDWR | O_CREAT)
        defer { close(descriptor) }
        try trimPartialLine(descriptor)
        guard lseek(descriptor, 0, SEEK_END) >= 0 else { throw QueueError.system("lseek", path: path, errno: errno) }
        try POSIXFile.writeAll(descriptor, request.ndjson, path: path)
        try POSIXFile.sync(descriptor, path: path)
        return .accepted
    }

    /// Cuts the file back to just after its last line feed when it ends inside a line.
    private func trimPartialLine(_ descriptor: Int32) throws {
        var end = lseek(descriptor, 0, SEEK_END)
        guard end > 0 else { return }
        var byte: UInt8 = 0
        var keep = end
        while end > 0 {
            guard pread(descriptor, &byte, 1, end - 1) == 1 else { throw QueueError.system("pread", path: path, errno: errno) }
            if byte == 0x0A { break }
            end -= 1
            keep = end
        }
        if keep != lseek(descriptor, 0, SEEK_END), ftruncate(descriptor, keep) != 0 {
            throw QueueError.system("ftruncate", path: path, errno: errno)
        }
    }
}
