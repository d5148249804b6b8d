import Foundation
import TallyQuery

/// The rows of a `TabSeparatedWithNamesAndTypes` answer, typed: integers, floats, text, null.
public struct ClickHouseResult: Sendable, Equatable {
    /// Column names, in order.
    public var names: [String]
    /// ClickHouse type of each column (`UInt64`, `Nullable(String)`, …).
    public var types: [String]
    /// The rows; each has one value per column.
    public var rows: [[ReportValue]]

    /// Parses an answer; throws when it is not the promised format.
    ///
    /// One pass over the bytes: each line ends at `\n` (a last line may lack it), each field at
    /// `\t`; a column's kind is read from its type once, and a whole number is read from its
    /// digits without making a `String` of them.
    public init(tabSeparated data: Data) throws {
        (names, types, rows) = try data.withUnsafeBytes { raw in
            var lines = Lines(bytes: raw.bindMemory(to: UInt8.self))
            guard let nameLine = lines.next(), let typeLine = lines.next() else {
                throw ClickHouseError.unexpectedAnswer("a result without its header lines")
            }
            let names = Self.fields(nameLine).map { Self.unescape($0) ?? "" }
            let types = Self.fields(typeLine).map { Self.unescape($0) ?? "" }
            let kinds = types.map(Kind.init(type:))
            var rows: [[ReportValue]] = []
            while let line = lines.next() {
                let fields = Self.fields(line)
                guard fields.count == names.count else {
                    throw ClickHouseError.unexpectedAnswer("a row of \(fields.count) fields where \(names.count) columns were announced")
                }
                rows.append(zip(fields, kinds).map { Self.value($0, kind: $1) })
            }
            return (names, types, rows)
        }
    }

    /// The value of column `name` in `row`; null when there is no such column.
    public func value(_ row: [ReportValue], _ name: String) -> ReportValue {
        names.firstIndex(of: name).map { row[$0] } ?? .null
    }

    // MARK: - Parsing

    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// How a column's values are read: by its type without `Nullable(…)`.
    private enum Kind {
        case integer, float, text

        init(type: String) {
            let base = type.hasPrefix("Nullable(") ? String(type.dropFirst(9).dropLast()) : type
            self = base.hasPrefix("Int") || base.hasPrefix("UInt") ? .integer : base.hasPrefix("Float") ? .float : .text
        }
    }

    /// The lines of an answer, without their `\n`.
    private struct Lines {
        let bytes: UnsafeBufferPointer<UInt8>
        var start = 0

        mutating func next() -> Bytes? {
            guard start < bytes.count else { return nil }
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            defer { start = end + 1 }
            return bytes[start..<end]
        }
    }

    private static func fields(_ line: Bytes) -> [Bytes] {
        line.split(separator: UInt8(ascii: "\t"), maxSplits: .max, omittingEmptySubsequences: false)
    }

    private static func value(_ field: Bytes, kind: Kind) -> ReportValue {
        if kind == .integer, let number = integer(field) { return .int(number) }
        guard let text = unescape(field) else { return .null }
        switch kind {
        case .integer:
            if let v = Int64(text) { return .int(v) }
            return Double(text).map { .double($0) } ?? .text(text)
        case .float:
            guard let v = Double(text), v.isFinite else { return .null }
            return .double(v)
        case .text:
            return .text(text)
        }
    }

    /// A field of an optional minus and 1 to 18 digits (always within `Int64`); nil for any
    /// other text, which `Int64(String)` and `Double(String)` then read.
    private static func integer(_ field: Bytes) -> Int64? {
        var digits = field[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var number: Int64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return negative ? -number : number
    }

    /// A TabSeparated field decoded; nil for `\N` (NULL).
    private static func unescape(_ field: Bytes) -> String? {
        if field.count == 2, field.first == UInt8(ascii: "\\"), field.last == UInt8(ascii: "N") { return nil }
        guard field.contains(UInt8(ascii: "\\")) else { return String(decoding: field, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(field.count)
        var escaped = false
        for byte in field {
            if escaped {
                switch byte {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "0"): out.append(0x00)
                default: out.append(byte)
                }
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
