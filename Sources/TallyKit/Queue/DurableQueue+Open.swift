extension DurableQueue {
    /// Opens (or creates) the queue in `directory`: reads the journal, removes files a crash left
    /// behind, scans the segments not yet batched (checking every record's CRC, quarantining what
    /// cannot be read), starts a fresh active segment and the background writer.
    ///
    /// Reads every queued byte once (about a second per gigabyte): call it at launch, off the
    /// main thread.
    public static func open(directory: String, configuration: QueueConfiguration = QueueConfiguration())
        throws(QueueError) -> DurableQueue {
        let segments = directory + "/segments", batches = directory + "/batches"
        let quarantine = directory + "/quarantine", journalPath = directory + "/journal.json"
        for folder in [directory, segments, batches, quarantine] { try POSIXFile.makeDirectory(folder) }
        var journal = try QueueJournal.load(from: journalPath)
        let batchBytes = try recoverBatches(in: batches, journal: &journal)

        var ids = try POSIXFile.list(segments).compactMap(MappedSegment.id(ofFileName:)).sorted()
        for id in ids where id < journal.cursor.segment {
            try POSIXFile.remove(segments + "/" + MappedSegment.fileName(id))
        }
        ids.removeAll { $0 < journal.cursor.segment }
        journal.quarantined.removeAll { !ids.contains($0.segment) }
        var sealedBytes: [UInt64: Int] = [:]
        var pending: UInt64 = 0
        for id in ids {
            let start = id == journal.cursor.segment ? journal.cursor.offset : 0
            var end = start
            _ = try scan(path: segments + "/" + MappedSegment.fileName(id), id: id, from: start, limit: nil,
                         quarantineDirectory: quarantine, journal: &journal) { item in
                switch item {
                case .record(_, _, _, let recordEnd):
                    pending += 1
                    end = recordEnd
                case .corrupt(let range):
                    end = range.upperBound
                }
                return true
            }
            sealedBytes[id] = end
        }
        let activeId = max(ids.last ?? 0, journal.cursor.segment) + 1
        let active = try MappedSegment.create(in: segments, id: activeId, capacity: configuration.segmentBytes)
        active.prefault()
        try POSIXFile.syncDirectory(segments)
        try journal.save(to: journalPath, directory: directory)

        let queue = DurableQueue(directory: directory, configuration: configuration, active: active, journal: journal,
                                 sealedBytes: sealedBytes, pendingRecords: pending, batchBytes: batchBytes)
        try queue.enforceBound()
        queue.startWriter()
        return queue
    }

    /// Deletes batch files the journal does not name (formed but never recorded, or answered but
    /// not yet deleted); forgets batches whose file is gone (counted as quarantined); makes every
    /// batch pending again (none is in flight after a restart). Returns the file sizes by id.
    private static func recoverBatches(in folder: String, journal: inout QueueJournal) throws(QueueError) -> [UInt64: Int64] {
        let known = Set(journal.batches.map(\.id))
        var sizes: [UInt64: Int64] = [:]
        for name in try POSIXFile.list(folder) {
            if let id = batchId(ofFileName: name), known.contains(id) {
                sizes[id] = POSIXFile.size(folder + "/" + name)
            } else {
                try POSIXFile.remove(folder + "/" + name)
            }
        }
        let lost = journal.batches.filter { sizes[$0.id] == nil }
        journal.counters.quarantined += UInt64(lost.reduce(0) { $0 + $1.eventCount })
        journal.batches.removeAll { sizes[$0.id] == nil }
        for index in journal.batches.indices where journal.batches[index].state == .inFlight {
            journal.batches[index].state = .pending
        }
        return sizes
    }

    /// The file name of batch `id`.
    static func batchFileName(_ id: UInt64) -> String {
        "batch-\(id).ndjson"
    }

    /// The batch id of a file name, if it is a batch file.
    static func batchId(ofFileName name: String) -> UInt64? {
        guard name.hasPrefix("batch-"), name.hasSuffix(".ndjson") else { return nil }
        return UInt64(name.dropFirst(6).dropLast(7))
    }
}
