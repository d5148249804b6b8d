import Foundation

/// A value behind a lock: state shared between threads (the app's and a kit's workers, a
/// running statement and the request that may cancel it).
///
/// `Synchronization.Mutex` would do the same but needs iOS 18 / macOS 15; apps embedding
/// TallyKit target older systems, so every module uses this one.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
