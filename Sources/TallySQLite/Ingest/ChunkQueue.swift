import Foundation
import TallyIngest

/// A bounded hand-off between the thread that reads and validates and the thread that stores:
/// the reader waits when `capacity` chunks are queued, so memory stays flat on any input.
final class ChunkQueue: @unchecked Sendable {
    enum Item {
        case chunk(ValidatedChunk)
        /// The rollups of the chunks since the previous `.rollups`, every valid record taken as
        /// new; the batch commits here.
        case rollups(RollupBatch)
        case failure(any Error)
        case end
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Queues `item`, waiting for room; false when the consumer gave up.
    @discardableResult
    func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && !cancelled {
            condition.wait()
        }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item, waiting for one.
    func take() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty {
            condition.wait()
        }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// Tells the producer to stop; queued items are dropped.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
