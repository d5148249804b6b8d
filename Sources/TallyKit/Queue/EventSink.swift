import TallyEvents

/// Where the kits put the events they produce: the durable upload queue, or a fake in tests.
///
/// `enqueue` is called on the app's threads (the main thread included): it must return in
/// microseconds and must not touch the disk. Durability comes from a background writer; a
/// caller that must know the event is on disk (the feedback kit's "succeeded" state) awaits
/// ``waitUntilDurable(_:)`` with the receipt.
public protocol EventSink: Sendable {
    /// Hands `event` to the queue and returns at once.
    @discardableResult
    func enqueue(_ event: Event) -> EnqueueReceipt

    /// Returns once the event behind `receipt`, and every event enqueued before it, is on disk.
    /// Throws when the queue can no longer write (its file system failed, or it was closed first).
    func waitUntilDurable(_ receipt: EnqueueReceipt) async throws
}
