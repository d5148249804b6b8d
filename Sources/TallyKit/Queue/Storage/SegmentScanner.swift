import TallyEvents

/// Reads the records of a segment in order, validating each frame, and reports the byte ranges
/// that hold no valid record (torn or corrupted) so they can be quarantined.
struct SegmentScanner {
    /// What the scanner found next.
    enum Item {
        /// A valid record at `offset`; its wire JSON is `json`; the next item starts at `end`.
        case record(offset: Int, family: EventFamily, json: UnsafeRawBufferPointer, end: Int)
        /// Bytes `range` hold no valid record.
        case corrupt(Range<Int>)
    }

    private let bytes: UnsafeRawBufferPointer
    /// Where the next item starts.
    private(set) var offset: Int

    /// A scanner of `bytes` (a segment's first bytes) starting at `offset`.
    init(_ bytes: UnsafeRawBufferPointer, from offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// The next record or corrupt range; nil at the end (only zero bytes remain).
    mutating func next() -> Item? {
        guard offset < bytes.count else { return nil }
        if let item = record(at: offset) {
            if case .record(_, _, _, let end) = item { offset = end }
            return item
        }
        // No valid record here: look for the next one, and call what lies between corrupt
        // unless it is all zero up to the end (the unused tail of a segment).
        var probe = offset + 1
        while probe + RecordFrame.headerSize <= bytes.count {
            if bytes.loadUnaligned(fromByteOffset: probe, as: UInt32.self) == RecordFrame.magic.littleEndian, record(at: probe) != nil {
                break
            }
            probe += 1
        }
        let start = offset
        if probe + RecordFrame.headerSize > bytes.count {
            probe = bytes.count
            if isZero(start..<probe) {
                offset = probe
                return nil
            }
        }
        offset = probe
        return .corrupt(start..<probe)
    }

    /// The valid record starting at `start`, or nil.
    private func record(at start: Int) -> Item? {
        guard start + RecordFrame.headerSize < bytes.count,
              bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self) == RecordFrame.magic.littleEndian else { return nil }
        let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self)))
        let checksum = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt32.self))
        let payloadStart = start + RecordFrame.headerSize
        guard length >= 2, length <= bytes.count - payloadStart else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<(payloadStart + length)])
        guard RecordFrame.crc(payload) == checksum, let family = RecordFrame.family(of: payload[0]) else { return nil }
        return .record(offset: start, family: family, json: UnsafeRawBufferPointer(rebasing: payload[1...]),
                       end: payloadStart + length)
    }

    private func isZero(_ range: Range<Int>) -> Bool {
        for index in range where bytes[index] != 0 { return false }
        return true
    }
}
