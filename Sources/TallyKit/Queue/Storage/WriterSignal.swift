import Foundation

/// Wakes the queue's background writer: when someone waits for durability, a segment fills,
/// or the queue closes; otherwise it wakes by itself every commit interval.
final class WriterSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var requested = false
    private var closing = false
    private var finished = false

    /// Asks the writer to run now.
    func wake() {
        condition.lock()
        requested = true
        condition.signal()
        condition.unlock()
    }

    /// Asks the writer to run a last time and stop.
    func close() {
        condition.lock()
        closing = true
        condition.signal()
        condition.unlock()
    }

    /// Waits until woken or `intervalMs` passed; true once the queue is closing.
    func waitForWork(intervalMs: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if !requested && !closing {
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(intervalMs) / 1000))
        }
        requested = false
        return closing
    }

    /// Marks the writer as stopped.
    func markFinished() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the writer stopped.
    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
