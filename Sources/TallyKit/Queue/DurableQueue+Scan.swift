extension DurableQueue {
    /// Reads segment `id` (file `path`) from byte `offset`, up to `limit` bytes when given,
    /// handing each item to `body` until it returns false. Corrupt ranges are quarantined first
    /// (once: `journal` remembers them). Returns where reading stopped and the end of the last
    /// item read.
    static func scan(path: String, id: UInt64, from offset: Int, limit: Int?, quarantineDirectory: String,
                     journal: inout QueueJournal,
                     _ body: (SegmentScanner.Item) throws(QueueError) -> Bool) throws(QueueError) -> Int {
        guard let segment = try MappedSegment.openForReading(path, id: id) else { return offset }
        defer { segment.close() }
        let bytes = UnsafeRawBufferPointer(start: segment.base, count: min(limit ?? segment.capacity, segment.capacity))
        var scanner = SegmentScanner(bytes, from: offset)
        while let item = scanner.next() {
            if case .corrupt(let range) = item {
                try quarantine(UnsafeRawBufferPointer(rebasing: bytes[range]), segment: id, range: range,
                               into: quarantineDirectory, journal: &journal)
            }
            guard try body(item) else { break }
        }
        return scanner.offset
    }

    /// Copies the unreadable bytes `range` of segment `segment` to the quarantine folder and
    /// counts them, unless the journal says that was done before.
    private static func quarantine(_ bytes: UnsafeRawBufferPointer, segment: UInt64, range: Range<Int>,
                                   into directory: String, journal: inout QueueJournal) throws(QueueError) {
        guard !journal.quarantined.contains(where: { $0.segment == segment && $0.start == range.lowerBound }) else { return }
        let name = MappedSegment.fileName(segment).replacingOccurrences(".tly", "-at-\(range.lowerBound).bin")
        try POSIXFile.createSynced(directory + "/" + name, with: Array(bytes))
        journal.quarantined.append(QuarantinedRange(segment: segment, start: range.lowerBound, end: range.upperBound))
        journal.counters.quarantined += 1
    }
}

private extension String {
    /// `self` with `suffix` replaced by `replacement` at its end.
    func replacingOccurrences(_ suffix: String, _ replacement: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
    }
}
