/// A byte-level, validating JSON scanner (RFC 8259, UTF-8 only).
///
/// `scan(_:)` checks the whole input in one pass: syntax, string escapes (surrogate pairs
/// included), number grammar, UTF-8 inside strings, nesting depth and trailing bytes. When the
/// value is an object it records each member's key and value span instead of building a
/// dictionary; typed accessors on `JSONObjectView` / `JSONValueView` then decode only the members
/// asked for.
public enum JSONScanner {
    /// The deepest nesting of objects and arrays accepted; deeper input is a `tooDeep` syntax error.
    public static let maximumDepth = 512

    /// Validates `bytes` as exactly one JSON value, with optional whitespace around it and an
    /// optional leading UTF-8 byte order mark (which RFC 8259, section 8.1, lets parsers ignore).
    ///
    /// The returned views point into `bytes`: use them only while `bytes` stays alive and unchanged.
    /// - Throws: `JSONSyntaxError` when the bytes are not one well-formed JSON value.
    public static func scan(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONDocument {
        var cursor = JSONCursor(bytes)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            cursor.position = 3
        }
        let first = try cursor.nextSignificant()
        let document: JSONDocument
        if first == 0x7B {
            document = .object(try JSONObjectView(bytes: bytes, cursor: &cursor))
        } else {
            let start = cursor.position
            let (kind, flags) = try cursor.scanValue(first, depth: 1)
            document = .other(JSONValueView(bytes: bytes, kind: kind, flags: flags, range: start..<cursor.position))
        }
        cursor.skipWhitespace()
        guard cursor.position == cursor.end else { throw cursor.error(.trailingData) }
        return document
    }
}
