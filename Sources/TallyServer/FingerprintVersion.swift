import Foundation
import NIOConcurrencyHelpers

/// A store version for backends without a change counter (ClickHouse): a fingerprint of the
/// store read by a query, such as each table's row count. It is read again after each of the
/// server's own writes, so the server's writes change the version at once, and otherwise at
/// most every `maxAgeMs`, so that writes by other processes change it within that time.
public final class FingerprintVersion: StoreVersioning {
    private struct Known {
        var fingerprint: String
        var atMs: Int64
        var generation: Int
    }

    private struct State {
        var known: Known?
        var generation = 0
    }

    private let state = NIOLockedValueBox(State())
    private let reading = NSLock()
    private let fingerprint: @Sendable () throws -> String
    /// How long a fingerprint is used before it is read again, when the server wrote nothing.
    public let maxAgeMs: Int64

    /// A version read by `fingerprint` (which may block), at most every `maxAgeMs`.
    public init(maxAgeMs: Int64 = 1000, fingerprint: @escaping @Sendable () throws -> String) {
        self.maxAgeMs = maxAgeMs
        self.fingerprint = fingerprint
    }

    /// The fingerprint read less than `maxAgeMs` ago and since the server last wrote.
    public func peek(nowMs: Int64) -> String? {
        state.withLockedValue { state in
            guard let known = state.known, known.generation == state.generation,
                  nowMs >= known.atMs, nowMs - known.atMs < maxAgeMs else { return nil }
            return known.fingerprint
        }
    }

    /// Reads the fingerprint; requests waiting meanwhile take the one read rather than each
    /// running the query.
    public func read(nowMs: Int64) throws -> String {
        reading.lock()
        defer { reading.unlock() }
        if let fresh = peek(nowMs: nowMs) { return fresh }
        let generation = state.withLockedValue { $0.generation }
        let value = try fingerprint()
        state.withLockedValue { $0.known = Known(fingerprint: value, atMs: nowMs, generation: generation) }
        return value
    }

    /// Makes the fingerprint known so far stale.
    public func writerStored() {
        state.withLockedValue { $0.generation += 1 }
    }
}
