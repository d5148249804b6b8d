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
    public init(tabSeparated data: Data) throws {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.count >= 2 else {
            throw ClickHouseError.unexpectedAnswer("a result without its header lines")
        }
        names = Self.fields(lines[0]).map { Self.unescape($0) ?? "" }
        types = Self.fields(lines[1]).map { Self.unescape($0) ?? "" }
        rows = []
        rows.reserveCapacity(lines.count - 2)
        for line in lines.dropFirst(2) {
            let fields = Self.fields(line)
            guard fields.count == names.count else {
                throw ClickHouseError.unexpectedAnswer("a row of \(fields.count) fields where \(names.count) columns were announced")
            }
            rows.append(zip(fields, types).map { Self.value($0, type: $1) })
        }
    }

    /// The value of column `name` in `row`; null when there is no such column.
    public func value(_ row: [ReportValue], _ name: String) -> ReportValue {
        names.firstIndex(of: name).map { row[$0] } ?? .null
    }

    private static func fields(_ line: Data.SubSequence) -> [Data.SubSequence] {
        line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
    }

    private static func value(_ field: Data.SubSequence, type: String) -> ReportValue {
        guard let text = unescape(field) else { return .null }
        var base = type
        if base.hasPrefix("Nullable(") { base = String(base.dropFirst(9).dropLast()) }
        if base.hasPrefix("Int") || base.hasPrefix("UInt") {
            if let v = Int64(text) { return .int(v) }
            return Double(text).map { .double($0) } ?? .text(text)
        }
        if base.hasPrefix("Float") {
            guard let v = Double(text), v.isFinite else { return .null }
            return .double(v)
        }
        return .text(text)
    }

    /// A TabSeparated field decoded; nil for `\N` (NULL).
    static func unescape(_ field: Data.SubSequence) -> String? {
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
