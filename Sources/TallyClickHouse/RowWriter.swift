/// Appends rows in ClickHouse's `TabSeparated` format to a byte buffer, byte by byte with no
/// intermediate strings: fields separated by tabs, a row ended by a newline, strings escaped as
/// the server reads them back (`\\`, `\t`, `\n`, `\r`, `\0`), `\N` for NULL. It writes the rows of
/// the smaller tables the ingest fills (feed states, rejected lines) and the lookups' external
/// tables; events go as `RowBinary` (`RowBinaryWriter`).
struct RowWriter {
    /// The rows written so far.
    private(set) var bytes: [UInt8] = []
    private var rowStart = true

    /// Creates a writer with room for `capacity` bytes.
    init(reserving capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// A row of two text fields per element of `items`, such as the keys of a lookup's external
    /// table.
    init<Items: Collection>(rowsOf items: Items, fields: (Items.Element) -> (String, String)) {
        bytes.reserveCapacity(items.count * 64)
        for item in items {
            let (first, second) = fields(item)
            text(first)
            text(second)
            endRow()
        }
    }

    /// How many bytes are written.
    var count: Int { bytes.count }

    /// A string field; nil writes NULL.
    mutating func text(_ value: String?) {
        separate()
        guard let value else { return null() }
        escape(value)
    }

    /// An integer field; nil writes NULL.
    mutating func number(_ value: Int64?) {
        separate()
        guard let value else { return null() }
        integer(value)
    }

    /// Ends the current row.
    mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        rowStart = true
    }

    /// Copies `range` of another writer's rows (whole rows) to the end of these.
    mutating func append(rowsOf other: RowWriter, range: Range<Int>) {
        bytes.append(contentsOf: other.bytes[range])
    }

    /// Forgets the rows, keeping the buffer's capacity.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        rowStart = true
    }

    private mutating func separate() {
        if rowStart {
            rowStart = false
        } else {
            bytes.append(UInt8(ascii: "\t"))
        }
    }

    private mutating func null() {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "N"))
    }

    private mutating func integer(_ value: Int64) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var magnitude = value.magnitude
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Appends `value`'s UTF-8 with the escapes `TabSeparated` needs.
    private mutating func escape(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            var clean = 0
            var index = 0
            while index < utf8.count {
                // Eight bytes at a time while none of them may need an escape (the most fields).
                if index + 8 <= utf8.count,
                   !Self.mayNeedEscape(UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                index += 1
                // Every byte that needs an escape is at most `'` or is a backslash: most bytes stop here.
                guard byte <= UInt8(ascii: "'") || byte == UInt8(ascii: "\\") else { continue }
                let escaped: UInt8
                switch byte {
                case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
                case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
                case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
                case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
                case 0: escaped = UInt8(ascii: "0")
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index - 1]))
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(escaped)
                clean = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
    }

    /// Whether any of the eight bytes of `word` is below `(` (the control characters, NUL and
    /// `'` among them) or is a backslash: the bytes `escape` may have to escape. Exact for the bytes
    /// of UTF-8 (a byte of 0x80 or more never counts).
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x28) & ~word & highs
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let backslash = (backslashes &- ones) & ~backslashes & highs
        return below | backslash != 0
    }
}
