/// Appends rows in ClickHouse's `RowBinary` format to a byte buffer: each field as the column's
/// type holds it, in the column's order, with nothing between fields or rows. A string is its
/// UTF-8 length (LEB128) then its bytes, as they are; integers and floats are little-endian of the
/// column's width; a `Nullable` field is a byte (1 NULL, 0 a value) then the value; an array is
/// its length then its elements. The server reads the values without parsing text (ClickHouse
/// 18.16 and current releases read it alike), and floats arrive bit for bit.
///
/// The writer knows no column types: each method writes one type, so the caller writes the
/// columns of its `INSERT` in their order with the methods of their types. Every insert of the
/// ingest (events, keys, the changes to the feed counters, rejected lines) and the external
/// tables of its lookups go this way.
struct RowBinaryWriter {
    /// The rows written so far.
    private(set) var bytes: [UInt8] = []

    /// Creates a writer with room for `capacity` bytes.
    init(reserving capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// A row of two `String` fields per element of `items`, such as the keys of a lookup's
    /// external table.
    init<Items: Collection>(rowsOf items: Items, fields: (Items.Element) -> (String, String)) {
        bytes.reserveCapacity(items.count * 64)
        for item in items {
            let (first, second) = fields(item)
            string(first)
            string(second)
        }
    }

    /// How many bytes are written.
    var count: Int { bytes.count }

    /// A `String` field.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            length(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A `Nullable(String)` field; nil writes NULL.
    mutating func nullableString(_ value: String?) {
        guard let value else { return null() }
        bytes.append(0)
        string(value)
    }

    /// An `Int64` field.
    mutating func int64(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A `Nullable(Int64)` field; nil writes NULL.
    mutating func nullableInt64(_ value: Int64?) {
        guard let value else { return null() }
        bytes.append(0)
        int64(value)
    }

    /// A `UInt8` field.
    mutating func uint8(_ value: UInt8) {
        bytes.append(value)
    }

    /// A `UInt8` field holding a flag: 1 when `value` is true.
    mutating func flag(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    /// An `Int16` field: `value`'s low 16 bits (the caller's values fit).
    mutating func int16(_ value: Int) {
        withUnsafeBytes(of: Int16(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A `UInt32` field: `value`'s low 32 bits (the caller's values fit).
    mutating func uint32(_ value: Int) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A `Nullable(Float64)` field; nil, or a value that is not finite (JSON has none), writes NULL.
    mutating func nullableFloat64(_ value: Double?) {
        guard let value, value.isFinite else { return null() }
        bytes.append(0)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// An `Array(String)` field.
    mutating func strings(_ values: [String]) {
        length(values.count)
        for value in values { string(value) }
    }

    /// An `Array(Nullable(Float64))` field; nil (or not finite) elements are NULL.
    mutating func nullableFloat64s(_ values: [Double?]) {
        length(values.count)
        for value in values { nullableFloat64(value) }
    }

    /// Copies `range` of another writer's rows (whole rows) to the end of these.
    mutating func append(rowsOf other: RowBinaryWriter, range: Range<Int>) {
        bytes.append(contentsOf: other.bytes[range])
    }

    /// Forgets the rows, keeping the buffer's capacity.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func null() {
        bytes.append(1)
    }

    /// A length or count as `RowBinary` writes it: LEB128, seven bits a byte, low bits first.
    private mutating func length(_ value: Int) {
        var rest = UInt64(value)
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
