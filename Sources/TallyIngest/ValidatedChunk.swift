import Foundation
import TallyEvents

/// Records read and validated ahead of the store, with a copy of their bytes: what the
/// reading thread hands to the storing thread, and what a request body becomes before its
/// events are stored.
public struct ValidatedChunk: Sendable {
    /// One record: its validation, where it came from, and where its bytes are in `bytes`.
    public struct Entry: Sendable {
        /// The event, or why it was rejected.
        public var result: Result<Event, EventRejection>
        /// The file (or request) and line of the record.
        public var origin: RecordOrigin
        /// The record's bytes within the chunk's `bytes`.
        public var range: Range<Int>
        /// The event's compact key (`EventKey`) within the chunk's `keys`; empty when rejected.
        package var key: Range<Int>
        /// The event's local date (`YYYY-MM-DD`, at its own offset); empty when rejected.
        package var localDate: String
    }

    /// The records, in input order.
    public internal(set) var entries: [Entry] = []
    /// The records' bytes, one after the other.
    public internal(set) var bytes: [UInt8] = []
    /// The compact keys of the valid records, one after the other.
    package var keys: [UInt8] = []
    /// Bytes of the input read when the chunk was closed, for progress.
    package var bytesRead = 0
    /// The valid records' indices in the order of their compact keys (`keyOrder()`), once
    /// computed; the reading thread sorts them so that the storing thread does not.
    package var sortedKeys: [Int32]?
    /// The first damaged batch element of this chunk whose rest was too long to search again.
    package var unread: RecordValidator.UnreadRemainder?
    /// The last local date computed, so that the records of one day share its text.
    private var lastDate: (day: Int, text: String) = (Int.min, "")

    /// An empty chunk with room for `capacity` records.
    public init(capacity: Int) {
        entries.reserveCapacity(capacity)
        bytes.reserveCapacity(capacity * 512)
        keys.reserveCapacity(capacity * 17)
    }

    /// Reads every record of `reader` (a request body, say) and validates it: the whole input
    /// is known to be readable before any of it is stored. Origins name `label`.
    ///
    /// - Throws: `EventFileError` when the input cannot be read or inflated, or when a damaged
    ///   element runs on too far to be searched again for the events after it.
    public init(reading reader: EventFileReader, label: String) throws {
        self.init(capacity: 64)
        try reader.forEachRecord { record in
            append(record, origin: RecordOrigin(file: label, line: record.line, element: record.index))
        }
        if let unread {
            throw EventFileError.unreadAfterDamage(file: label, line: unread.line, bytes: unread.bytes)
        }
    }

    /// Validates `record` and copies it in, as `ingest` does; a damaged batch element becomes
    /// the records found in it (`RecordValidator.validate(_:_:)`), each with its own line and position.
    public mutating func append(_ record: EventFileReader.Record, origin: RecordOrigin) {
        let unread = RecordValidator.validate(record) { piece, result in
            let start = bytes.count
            bytes.append(contentsOf: piece.bytes)
            let keyStart = keys.count
            var localDate = ""
            if case .success(let event) = result {
                EventKey.append(event.idempotencyKey, family: EventKey.family(of: event), to: &keys)
                localDate = localDateText(of: event)
            }
            entries.append(Entry(result: result, origin: RecordOrigin(file: origin.file, line: piece.line, element: piece.index),
                                 range: start..<bytes.count, key: keyStart..<keys.count, localDate: localDate))
        }
        if self.unread == nil { self.unread = unread }
    }

    private mutating func localDateText(of event: Event) -> String {
        let date = LocalDate(instantMs: event.timestampMs, offsetMinutes: event.common.timezoneOffsetMinutes)
        if date.dayNumber != lastDate.day {
            lastDate = (date.dayNumber, date.description)
        }
        return lastDate.text
    }

    /// The valid records' indices ordered by compact key (as SQLite orders the blobs in
    /// `event_keys`), ties in input order, so that claiming them walks the key table once in
    /// order and the first of two equal keys claims it.
    package func keyOrder() -> [Int32] {
        if let sortedKeys { return sortedKeys }
        var order: [Int32] = []
        order.reserveCapacity(entries.count)
        for (i, entry) in entries.enumerated() where !entry.key.isEmpty {
            order.append(Int32(i))
        }
        keys.withUnsafeBytes { keys in
            entries.withUnsafeBufferPointer { entries in
                order.sort { a, b in
                    let x = entries[Int(a)].key, y = entries[Int(b)].key
                    let common = min(x.count, y.count)
                    let c = memcmp(keys.baseAddress! + x.lowerBound, keys.baseAddress! + y.lowerBound, common)
                    if c != 0 { return c < 0 }
                    return x.count != y.count ? x.count < y.count : a < b
                }
            }
        }
        return order
    }

    /// Sorts the keys now (on the reading thread), for `keyOrder()`.
    package mutating func sortKeys() {
        sortedKeys = keyOrder()
    }
}
