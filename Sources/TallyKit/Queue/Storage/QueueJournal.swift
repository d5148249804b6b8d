import Foundation

/// The queue's small persistent state, replaced atomically (write, sync, rename) on every change:
/// how far the segments have been put into batches, the batches with their retry state, the
/// counters, and the ranges already quarantined.
///
/// Order of writes: a batch's file is synced before the journal names it; the journal forgets a
/// batch before its file is deleted; the cursor passes a segment before the segment is deleted.
/// A crash between two steps therefore leaves a stray file (removed at the next open), never a
/// journal naming a missing file, and never an answered batch that would be sent again.
struct QueueJournal: Codable, Sendable, Equatable {
    /// Records before this position are in batches or dropped.
    var cursor = QueuePosition(segment: 0, offset: 0)
    /// The id of the next batch formed.
    var nextBatchId: UInt64 = 1
    /// The batches not yet answered, oldest first.
    var batches: [QueuedBatch] = []
    /// The counters kept across launches.
    var counters = QueueCounters()
    /// The corrupt ranges of live segments already quarantined (so a relaunch does not count them twice).
    var quarantined: [QuarantinedRange] = []

    /// The journal in `directory`, or a fresh one when there is none.
    static func load(from path: String) throws(QueueError) -> QueueJournal {
        guard let bytes = try POSIXFile.read(path) else { return QueueJournal() }
        do {
            return try JSONDecoder().decode(QueueJournal.self, from: Data(bytes))
        } catch {
            throw .unreadableJournal(path: path, reason: "\(error)")
        }
    }

    /// Replaces the journal at `path` atomically.
    func save(to path: String, directory: String) throws(QueueError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(self))
        } catch {
            throw .unreadableJournal(path: path, reason: "\(error)")
        }
        try POSIXFile.replaceAtomically(path, directory: directory, with: bytes)
    }
}
