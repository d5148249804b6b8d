/// Streams the elements of a batch array (`[...]`, or the `events` array of a batch object)
/// with a state machine that follows strings, escapes and bracket depth, so that an element's
/// end is found without parsing it and elements may span chunks.
///
/// The array's content is cut at the commas at its own depth; each piece, trimmed of
/// whitespace, is one element. Structural damage becomes a record flagged `malformed`; data
/// after the end of the batch (a stray `]`, a second array) is reported once and read on as
/// more elements, so that nothing after the damage is silently dropped.
struct BatchSplitter: RecordSplitter {
    private enum Phase {
        /// Inside the array, between or within elements.
        case elements
        /// After the `events` array, skipping the rest of the batch object.
        case restOfObject
        /// After an element too long to hold: looking, byte by byte, for the next `{` that can
        /// only start an element (after a `,`, `}` or `]`), where reading resumes.
        case seeking
        /// After the batch: only whitespace may follow.
        case trailing
        /// The input has ended.
        case finished
    }

    private var phase = Phase.elements
    private let isObject: Bool
    private let maxRecordBytes: Int
    private var position: Int
    private var line: Int

    // Nesting, kept across chunks: depth 0 is the array's own level.
    private var depth = 0
    private var inString = false
    private var escaped = false

    // The current element.
    private var index = 0
    /// The offset of the element's first byte; nil before it.
    private var elementStart: Int?
    private var elementLine = 0
    /// A bare scalar (number, literal, stray word) is being read at depth 0.
    private var inScalar = false
    /// A value ended at depth 0: anything but whitespace before the next `,` or `]` is damage.
    private var valueEnded = false
    private var problem: String?
    /// A `,` came after the previous element, so a `]` now closes an empty element.
    private var afterComma = false
    /// While seeking: the last non-blank byte seen.
    private var seekPrevious: UInt8 = 0
    /// Data came after the end of the batch and is read as more elements.
    private var reopened = false
    /// The bytes are a piece of a damaged element, not a whole batch: no `]` is expected.
    private let isFragment: Bool

    /// Starts at `offset`, just after the array's `[`, on line `line`; `isObject` when the
    /// array is the `events` value of a batch object. A `fragment` is the content of a damaged
    /// element cut again, whose elements are numbered from `firstIndex`.
    init(offset: Int, line: Int, isObject: Bool, maxRecordBytes: Int, fragment firstIndex: Int? = nil) {
        position = offset
        self.line = line
        self.isObject = isObject
        self.maxRecordBytes = maxRecordBytes
        isFragment = firstIndex != nil
        index = firstIndex ?? 0
    }

    var keepFrom: Int { elementStart ?? position }

    var isFinished: Bool { phase == .finished }

    mutating func didDiscard(_ n: Int) {
        position -= n
        elementStart = elementStart.map { $0 - n }
    }

    mutating func scan(
        _ p: UnsafePointer<UInt8>, count: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows {
        var i = position
        scanning: while i < count {
            switch phase {
            case .elements:
                if depth > 0 || inString {
                    i = skipNested(p, from: i, count: count)
                    continue
                }
                let c = p[i]
                switch c {
                case 0x20, 0x09, 0x0D, 0x0A:
                    if c == 0x0A { line += 1 }
                    if inScalar {
                        inScalar = false
                        valueEnded = true
                    }
                case UInt8(ascii: ","), UInt8(ascii: "]"):
                    if let start = elementStart, i - start > maxRecordBytes {
                        i = try seek(after: start, p, available: i - start, emit: emit)
                        continue
                    }
                    if c == UInt8(ascii: ",") {
                        try endElement(p, at: i, emit: emit)
                        afterComma = true
                        break
                    }
                    if elementStart != nil || afterComma {
                        try endElement(p, at: i, emit: emit)
                    }
                    if isObject && !reopened {
                        phase = .restOfObject
                        depth = 1
                    } else {
                        phase = .trailing
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    beginToken(at: i)
                    depth = 1
                case UInt8(ascii: "\""):
                    beginToken(at: i)
                    inString = true
                case UInt8(ascii: "}"):
                    beginToken(at: i)
                    problem = problem ?? "unexpected '}' in the batch array"
                    valueEnded = true
                default:
                    if !inScalar {
                        beginToken(at: i)
                        inScalar = true
                    }
                }
                i += 1
            case .seeking:
                let c = p[i]
                if c == UInt8(ascii: "{")
                    && (seekPrevious == UInt8(ascii: ",") || seekPrevious == UInt8(ascii: "}") || seekPrevious == UInt8(ascii: "]")) {
                    phase = .elements
                    continue
                }
                if c == 0x0A {
                    line += 1
                } else if !c.isBlank {
                    seekPrevious = c
                }
                i += 1
            case .restOfObject:
                i = skipNested(p, from: i, count: count)
                if depth == 0 && !inString { phase = .trailing }
            case .trailing:
                let c = p[i]
                if c == 0x0A {
                    line += 1
                } else if !c.isBlank {
                    try reopen(p, at: i, emit: emit)
                    // A `,` after a stray `]`, or the `[` of a second array, is read as a separator.
                    if c != UInt8(ascii: ",") && c != UInt8(ascii: "[") { continue }
                }
                i += 1
            case .finished:
                break scanning
            }
        }
        position = i
        if let start = elementStart, count - start > maxRecordBytes {
            position = try seek(after: start, p, available: count - start, emit: emit)
            try scan(p, count: count, emit: emit)
        }
    }

    /// Reports the element at `start` as too long (a preview of its `available` bytes) and
    /// seeks the next element from its second byte, so that damage which made it so long
    /// (an object left open) does not hide the elements after it. Returns where to resume.
    private mutating func seek(
        after start: Int, _ p: UnsafePointer<UInt8>, available: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows -> Int {
        try emit(Self.tooLong("element", p, start: start, available: available, line: elementLine, index: index,
                              limit: maxRecordBytes))
        line = elementLine
        seekPrevious = p[start]
        phase = .seeking
        elementStart = nil
        index += 1
        depth = 0
        inString = false
        escaped = false
        inScalar = false
        valueEnded = false
        problem = nil
        afterComma = false
        return start + 1
    }

    mutating func finish(
        _ p: UnsafePointer<UInt8>, count: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows {
        switch phase {
        case .elements:
            if let start = elementStart, depth > 0 || inString {
                try emit(.init(bytes: UnsafeRawBufferPointer(start: p + start, count: count - start),
                               line: elementLine, index: index, malformed: "the input ends inside this element"))
            } else {
                if elementStart != nil { try endElement(p, at: count, emit: emit) }
                if !isFragment && !reopened {
                    try emit(.init(bytes: UnsafeRawBufferPointer(start: nil, count: 0), line: line, index: nil,
                                   malformed: "the batch array is not closed by ']'"))
                }
            }
        case .restOfObject:
            try emit(.init(bytes: UnsafeRawBufferPointer(start: nil, count: 0), line: line, index: nil,
                           malformed: "the batch object is not closed by '}'"))
        case .seeking, .trailing, .finished:
            break
        }
        phase = .finished
    }

    /// Reports the data at `i` after the end of the batch (a stray `]`, a second array) and
    /// reads on: what follows is taken as more elements rather than ignored.
    private mutating func reopen(
        _ p: UnsafePointer<UInt8>, at i: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows {
        let what = p[i] == UInt8(ascii: ",") ? "a stray ']' closed the batch array early" : "data after the end of the batch"
        try emit(.init(bytes: UnsafeRawBufferPointer(start: nil, count: 0), line: line, index: nil,
                       malformed: what + "; what follows is read as more elements"))
        phase = .elements
        depth = 0
        reopened = true
    }

    /// Notes a value starting at depth 0 at offset `i`: the element's start, or damage when
    /// the element already holds a value.
    @inline(__always)
    private mutating func beginToken(at i: Int) {
        if elementStart == nil {
            elementStart = i
            elementLine = line
        } else if valueEnded || inScalar {
            problem = problem ?? "two values in one batch element (a missing ',')"
        }
        inScalar = false
    }

    /// Emits the element that ends before the `,` or `]` at offset `i`, and starts the next.
    private mutating func endElement(
        _ p: UnsafePointer<UInt8>, at i: Int, emit: (EventFileReader.Record) throws -> Void
    ) rethrows {
        defer {
            index += 1
            elementStart = nil
            inScalar = false
            valueEnded = false
            problem = nil
            afterComma = false
        }
        guard let start = elementStart else {
            try emit(.init(bytes: UnsafeRawBufferPointer(start: nil, count: 0), line: line, index: index,
                           malformed: "empty element in the batch array (a stray ',')"))
            return
        }
        var end = i
        while end > start && (p[end - 1].isBlank || p[end - 1] == 0x0A) { end -= 1 }
        try emit(.init(bytes: UnsafeRawBufferPointer(start: p + start, count: end - start),
                       line: elementLine, index: index, malformed: problem))
    }

    /// Follows a string or a nested container until the value at depth 0 ends (returning the
    /// offset after its last byte) or the bytes run out (returning `count`).
    @inline(__always)
    private mutating func skipNested(_ p: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var i = start
        var depth = self.depth
        var line = self.line
        var inString = self.inString
        var escaped = self.escaped
        defer {
            self.depth = depth
            self.line = line
            self.inString = inString
            self.escaped = escaped
        }
        while i < count {
            if inString {
                if escaped {
                    escaped = false
                    if p[i] == 0x0A { line += 1 }
                    i += 1
                    continue
                }
                // Eight bytes at a time to the next quote, backslash or line feed.
                while i + 8 <= count {
                    let found = Self.stringStops(in: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
                    if found != 0 {
                        i += found.trailingZeroBitCount >> 3
                        break
                    }
                    i += 8
                }
                if i == count { return i }
                var c = p[i]
                while c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") && c != 0x0A {
                    i += 1
                    if i == count { return i }
                    c = p[i]
                }
                i += 1
                if c == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 {
                        valueEnded = true
                        return i
                    }
                } else if c == UInt8(ascii: "\\") {
                    escaped = true
                } else {
                    line += 1
                }
            } else {
                let c = p[i]
                i += 1
                switch c {
                case UInt8(ascii: "\""):
                    inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        valueEnded = true
                        if c == UInt8(ascii: "]"), phase == .elements, let start = elementStart, p[start] == UInt8(ascii: "{") {
                            // An object left open: this `]` closes the batch array, not the element.
                            problem = problem ?? "an object is not closed before the ']' that ends the batch"
                            return i - 1
                        }
                        return i
                    }
                case 0x0A:
                    line += 1
                default:
                    break
                }
            }
        }
        return i
    }

    /// A mask with the high bit set in the bytes of `word` that are `"`, `\` or a line feed
    /// (exact for the lowest such byte, which is all the caller uses).
    @inline(__always)
    private static func stringStops(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let q = word ^ (ones &* 0x22), b = word ^ (ones &* 0x5C), n = word ^ (ones &* 0x0A)
        return (((q &- ones) & ~q) | ((b &- ones) & ~b) | ((n &- ones) & ~n)) & highs
    }
}
