#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes the reader holds: the unfinished record carried over from earlier chunks plus the
/// newest chunk. It grows only when one record outgrows it.
final class InputWindow {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes held, from `base`.
    private(set) var count = 0
    /// Each read gets at least this much room, so a long carried record does not shrink reads.
    private let minimumRead: Int

    init(chunkSize: Int) {
        capacity = chunkSize
        minimumRead = max(1, chunkSize / 2)
        base = malloc(chunkSize)!.assumingMemoryBound(to: UInt8.self)
    }

    deinit {
        free(base)
    }

    /// Reads the next bytes of `source` after the held ones; returns how many (0 at the end).
    func fill(from source: any ByteSource) throws -> Int {
        if capacity - count < minimumRead {
            capacity = max(capacity * 2, count + minimumRead)
            base = realloc(base, capacity)!.assumingMemoryBound(to: UInt8.self)
        }
        let n = try source.read(into: UnsafeMutableRawBufferPointer(start: base + count, count: capacity - count))
        count += n
        return n
    }

    /// Reads until at least `minimum` bytes are held or the source ends.
    func fill(from source: any ByteSource, toAtLeast minimum: Int) throws {
        while count < minimum, try fill(from: source) > 0 {}
    }

    /// Forgets the first `n` bytes, moving the rest to the front.
    func discard(_ n: Int) {
        guard n > 0 else { return }
        memmove(base, base + n, count - n)
        count -= n
    }

    /// Forgets every byte held.
    func removeAll() {
        count = 0
    }
}
