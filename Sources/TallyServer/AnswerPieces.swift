import Foundation
import NIOCore
import TallySupport

/// The pieces of one streamed `/sql` answer on their way from the thread that reads and renders
/// them (`put`) to the response writer (`next`, then `written`). At most `capacity` pieces are
/// held at once, queued or being written: `put` waits for room, so an answer of any size holds
/// no more than that, and a client that reads slowly slows the statement down.
final class AnswerPieces: @unchecked Sendable {
    /// What the writer gets next.
    enum Next {
        /// A piece of the answer, held until `written(_:)`.
        case piece(ByteBuffer)
        /// The statement ended: nil after its last piece, else the error that stopped it.
        case end((any Error)?)
    }

    private let capacity: Int
    private let held: @Sendable (Int) -> Void
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var queue: [ByteBuffer] = []
    private var writing = 0
    private var ended: Next?
    private var reader: CheckedContinuation<Next, Never>?
    private var left = false

    /// Pieces of at most `capacity` held at once; `held` hears the bytes held grow (> 0) and
    /// shrink (< 0).
    init(capacity: Int, held: @escaping @Sendable (Int) -> Void) {
        self.capacity = max(1, capacity)
        self.held = held
    }

    /// Hands `text` to the writer once fewer than `capacity` pieces are held; while it waits,
    /// `interrupter` is asked every 100 ms whether the statement must stop (its time limit counts).
    ///
    /// - Throws: `StatementInterrupted` when the statement must stop or the writer left.
    func put(_ text: String, interrupter: StatementInterrupter) throws {
        let piece = ByteBuffer(string: text)
        held(piece.readableBytes)
        condition.lock()
        while !left && queue.count + writing >= capacity && !interrupter.shouldStop() {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        guard !left, queue.count + writing < capacity else {
            condition.unlock()
            held(-piece.readableBytes)
            throw StatementInterrupted(cause: interrupter.cause ?? .cancelled)
        }
        let waiting = reader
        reader = nil
        if waiting == nil { queue.append(piece) } else { writing += 1 }
        condition.unlock()
        waiting?.resume(returning: .piece(piece))
    }

    /// The statement ended: `error` nil after its last piece was put, else what stopped it.
    func finish(_ error: (any Error)?) {
        condition.lock()
        ended = .end(error)
        let waiting = reader
        reader = nil
        condition.unlock()
        waiting?.resume(returning: .end(error))
    }

    /// The next piece, or the end once every piece was taken; waits for either.
    func next() async -> Next {
        await withCheckedContinuation { continuation in
            condition.lock()
            if left {
                condition.unlock()
                continuation.resume(returning: .end(StatementInterrupted(cause: .cancelled)))
            } else if !queue.isEmpty {
                let piece = queue.removeFirst()
                writing += 1
                condition.unlock()
                continuation.resume(returning: .piece(piece))
            } else if let ended {
                condition.unlock()
                continuation.resume(returning: ended)
            } else {
                reader = continuation
                condition.unlock()
            }
        }
    }

    /// The writer is done with `piece` (written, or not since its client left): room for another.
    func written(_ piece: ByteBuffer) {
        condition.lock()
        writing -= 1
        condition.signal()
        condition.unlock()
        held(-piece.readableBytes)
    }

    /// The writer left (its client went away, its task was cancelled): the pieces queued are
    /// dropped, `put` fails from now on and a waiting `next` ends.
    func leave() {
        condition.lock()
        left = true
        let dropped = queue.reduce(0) { $0 + $1.readableBytes }
        queue = []
        let waiting = reader
        reader = nil
        condition.broadcast()
        condition.unlock()
        if dropped > 0 { held(-dropped) }
        waiting?.resume(returning: .end(StatementInterrupted(cause: .cancelled)))
    }
}
