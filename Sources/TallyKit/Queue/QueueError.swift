#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// Why the durable queue could not do what it was asked.
public enum QueueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed on a file of the queue.
    case system(String, path: String, errno: Int32)
    /// The queue was closed before the operation could finish.
    case closed
    /// The journal exists but cannot be read.
    case unreadableJournal(path: String, reason: String)
    /// No batch has this id (it was answered, split or dropped meanwhile).
    case unknownBatch(UInt64)

    /// What went wrong, naming the file.
    public var description: String {
        switch self {
        case .system(let call, let path, let code):
            "\(call) failed for \(path): \(String(cString: strerror(code)))"
        case .closed:
            "the queue is closed"
        case .unreadableJournal(let path, let reason):
            "the queue journal \(path) cannot be read: \(reason)"
        case .unknownBatch(let id):
            "no queued batch has id \(id)"
        }
    }
}
