#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an input file could not be read at all; each description is one sentence naming the file.
public enum EventFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `open(2)` failed; carries `errno`.
    case cannotOpen(file: String, errno: Int32)
    /// `read(2)` failed; carries `errno`.
    case cannotRead(file: String, errno: Int32)
    /// The name ends in `.gz` but the data does not start with the gzip signature.
    case notGzip(file: String)
    /// The gzip data is damaged at `offset` (a byte offset in the compressed file).
    case corruptGzip(file: String, offset: Int, reason: String)
    /// The gzip data ends before its last member is complete.
    case truncatedGzip(file: String, offset: Int)
    /// Bytes that do not start another gzip member follow a complete one, from `offset` (a byte
    /// offset in the compressed file): garbage or padding, which `gzip -d` warns about and ignores.
    case trailingGarbage(file: String, offset: Int)
    /// Gzip data inflates to more than `limit` bytes, a limit given for a request body.
    case inflatedTooLarge(file: String, limit: Int)
    /// The data does not start like JSON and is not UTF-8 text (a binary file, an image,
    /// UTF-16): `byte` at `offset` in the decoded data is NUL or not UTF-8.
    case notText(file: String, offset: Int, byte: UInt8)
    /// A damaged batch element at `line` runs on for `bytes` bytes that the re-reading limit
    /// kept from being searched for further events; they are one rejected record.
    case unreadAfterDamage(file: String, line: Int, bytes: Int)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .cannotOpen(let file, let code):
            "Cannot open \(file): \(Self.text(of: code))."
        case .cannotRead(let file, let code):
            "Cannot read \(file): \(Self.text(of: code))."
        case .notGzip(let file):
            "\(file) is not gzip data: it does not start with the gzip signature 1f 8b."
        case .corruptGzip(let file, let offset, let reason):
            "\(file) is corrupt gzip data at byte \(offset) (\(reason))."
        case .truncatedGzip(let file, let offset):
            "\(file) is truncated gzip data: it ends at byte \(offset) inside a compressed stream."
        case .trailingGarbage(let file, let offset):
            "\(file) has bytes that are not gzip data after its last gzip member, from byte \(offset) (trailing garbage or padding)."
        case .inflatedTooLarge(let file, let limit):
            "\(file) inflates to more than its \(limit)-byte limit."
        case .notText(let file, let offset, 0):
            "\(file) is not JSON event data: byte \(offset) is NUL, so the file is binary."
        case .notText(let file, let offset, let byte):
            "\(file) is not JSON event data: byte \(offset) (0x\(String(byte, radix: 16))) is not UTF-8 text."
        case .unreadAfterDamage(let file, let line, let bytes):
            "\(file):\(line): a damaged batch element runs on for \(bytes) bytes that were too many to search again "
                + "for events; they are kept as one rejected record, and any events in them are not stored."
        }
    }

    private static func text(of code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
