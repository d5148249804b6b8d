import TallyEvents

/// Validation of the records a reader cuts: the same for every backend, every input (a file,
/// standard input, a request body).
public enum RecordValidator {
    /// The validation of one record: `malformed` records (the reader could not cut a whole
    /// JSON value out of the input, as in a damaged batch array) are `INVALID_JSON` without parsing.
    public static func validate(_ bytes: UnsafeRawBufferPointer, malformed: String?) -> Result<Event, EventRejection> {
        malformed.map { .failure(EventRejection(code: .invalidJSON, message: $0)) } ?? EventValidator.validate(bytes)
    }

    /// Validates one record and hands `body` the outcome; a batch element that is not JSON is
    /// first cut again, since damage (an object left open, a string left unterminated) makes
    /// the splitter take every element after it for part of it.
    ///
    /// Such an element is read again from the first `{` that can only start another element
    /// (one that follows a `,`, `}` or `]`): `body` gets the damaged head, rejected with the
    /// element's own problem, then each element found after it, each checked the same way. The
    /// re-reading is bounded (a few times the element's size), so a hostile input cannot make
    /// it quadratic; what is left beyond that stays one rejected record, and its line and size
    /// are returned so that the caller can say that events in it may not have been read.
    @discardableResult
    public static func validate(
        _ record: EventFileReader.Record, _ body: (EventFileReader.Record, Result<Event, EventRejection>) throws -> Void
    ) rethrows -> UnreadRemainder? {
        var budget = record.bytes.count * 4 + (64 << 10)
        var unread: UnreadRemainder?
        try validate(record, budget: &budget, unread: &unread, body)
        return unread
    }

    /// Where the re-reading of a damaged batch element stopped: the rest of the element, from
    /// `line`, is `bytes` long and was kept as one rejected record without being searched.
    public struct UnreadRemainder: Sendable, Equatable {
        /// The line the unread rest starts on.
        public var line: Int
        /// Its size in bytes.
        public var bytes: Int
    }

    private static func validate(
        _ record: EventFileReader.Record, budget: inout Int, unread: inout UnreadRemainder?,
        _ body: (EventFileReader.Record, Result<Event, EventRejection>) throws -> Void
    ) rethrows {
        let result = validate(record.bytes, malformed: record.malformed)
        guard let index = record.index, !record.isPreview, case .failure(let rejection) = result, rejection.code == .invalidJSON,
              let restart = nextElementStart(in: record.bytes) else {
            try body(record, result)
            return
        }
        guard budget >= record.bytes.count else {
            if unread == nil { unread = UnreadRemainder(line: record.line, bytes: record.bytes.count) }
            try body(record, result)
            return
        }
        budget -= record.bytes.count
        let bytes = record.bytes.bindMemory(to: UInt8.self)
        var headEnd = restart
        while headEnd > 0 && (bytes[headEnd - 1].isBlank || bytes[headEnd - 1] == 0x0A || bytes[headEnd - 1] == UInt8(ascii: ",")) {
            headEnd -= 1
        }
        try body(EventFileReader.Record(bytes: UnsafeRawBufferPointer(rebasing: record.bytes[..<headEnd]), line: record.line,
                                        index: index, malformed: record.malformed ?? rejection.message), result)
        let line = record.line + bytes[..<restart].count(where: { $0 == 0x0A })
        var splitter = BatchSplitter(offset: 0, line: line, isObject: false, maxRecordBytes: .max, fragment: index + 1)
        var pieces: [EventFileReader.Record] = []
        let rest = bytes.baseAddress! + restart
        splitter.scan(rest, count: bytes.count - restart) { pieces.append($0) }
        splitter.finish(rest, count: bytes.count - restart) { pieces.append($0) }
        for piece in pieces {
            try validate(piece, budget: &budget, unread: &unread, body)
        }
    }

    /// The offset of the first `{` after the first byte whose previous non-blank byte is `,`,
    /// `}` or `]`: where, in valid JSON, only a new element of an array can start.
    private static func nextElementStart(in bytes: UnsafeRawBufferPointer) -> Int? {
        var previous = bytes.first ?? 0
        for i in 1..<max(1, bytes.count) {
            let c = bytes[i]
            if c == UInt8(ascii: "{") && (previous == UInt8(ascii: ",") || previous == UInt8(ascii: "}") || previous == UInt8(ascii: "]")) {
                return i
            }
            if !c.isBlank && c != 0x0A { previous = c }
        }
        return nil
    }
}
