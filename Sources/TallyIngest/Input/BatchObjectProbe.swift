/// Reads the first top-level object of an input that starts with `{` far enough to tell a batch
/// object (a key `events` at depth 1 whose value is an array) from a plain event. Resumable: the
/// object may arrive over several chunks.
struct BatchObjectProbe {
    /// What the bytes so far say.
    enum Verdict {
        /// The object is not finished and no `events` array has started yet.
        case undecided
        /// A batch object; its events array's content starts at this offset (after the `[`).
        case batch(arrayContentStart: Int)
        /// The object closed without an `events` array: the input is NDJSON.
        case notBatch
    }

    private static let eventsKey = Array("events".utf8)

    private var position: Int
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The offset of the first byte of the key being read, or nil when the string is not a key at depth 1.
    private var keyStart: Int?
    private var expectingKey = false
    /// The key just read is `events` and its `:` has not come yet.
    private var keyIsEvents = false
    /// The next token is the value of `events`.
    private var atEventsValue = false

    /// Starts at the offset of the object's `{`.
    init(objectStart: Int) {
        position = objectStart
    }

    /// Reads on through the first `count` bytes at `p`.
    mutating func scan(_ p: UnsafePointer<UInt8>, count: Int) -> Verdict {
        while position < count {
            let c = p[position]
            position += 1
            if inString {
                if escaped {
                    escaped = false
                } else if c == UInt8(ascii: "\\") {
                    escaped = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false
                    if let start = keyStart {
                        keyIsEvents = UnsafeBufferPointer(start: p + start, count: position - 1 - start)
                            .elementsEqual(Self.eventsKey)
                        keyStart = nil
                    }
                }
                continue
            }
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            case UInt8(ascii: ":"):
                if depth == 1 {
                    atEventsValue = keyIsEvents
                    keyIsEvents = false
                }
                continue
            case UInt8(ascii: "\""):
                inString = true
                if depth == 1 && expectingKey {
                    keyStart = position
                    expectingKey = false
                }
            case UInt8(ascii: "["):
                if atEventsValue && depth == 1 { return .batch(arrayContentStart: position) }
                depth += 1
            case UInt8(ascii: "{"):
                depth += 1
                expectingKey = depth == 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth <= 0 { return .notBatch }
            case UInt8(ascii: ","):
                expectingKey = depth == 1
            default:
                break
            }
            atEventsValue = false
        }
        return .undecided
    }
}
