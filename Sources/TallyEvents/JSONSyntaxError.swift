/// Why bytes are not one well-formed UTF-8 JSON value, and where the scanner noticed it.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of syntax error the scanner reports.
    public enum Problem: UInt8, Sendable, CaseIterable {
        /// The input ended inside a value, or holds no value at all.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here.
        case unexpectedByte
        /// A number that breaks the RFC 8259 grammar (`01`, `1.`, `-`, `1e`).
        case invalidNumber
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
        case invalidEscape
        /// A `\uD800`...`\uDFFF` escape that is not half of a surrogate pair.
        case unpairedSurrogate
        /// An unescaped control character (U+0000...U+001F) inside a string.
        case controlCharacter
        /// Bytes that are not well-formed UTF-8 inside a string.
        case invalidUTF8
        /// Containers nested deeper than `JSONScanner.maximumDepth`.
        case tooDeep
        /// Something other than whitespace after the value.
        case trailingData
    }

    /// What is wrong.
    public var problem: Problem
    /// The offset of the offending byte from the start of the scanned bytes.
    public var offset: Int

    /// Creates a syntax error.
    public init(_ problem: Problem, at offset: Int) {
        self.problem = problem
        self.offset = offset
    }

    /// A short phrase such as `unexpected end of input at byte 67`.
    public var description: String {
        let what: String = switch problem {
        case .unexpectedEnd: "unexpected end of input"
        case .unexpectedByte: "unexpected character"
        case .invalidNumber: "malformed number"
        case .invalidEscape: "invalid escape sequence"
        case .unpairedSurrogate: "unpaired UTF-16 surrogate escape"
        case .controlCharacter: "unescaped control character in a string"
        case .invalidUTF8: "invalid UTF-8"
        case .tooDeep: "nesting deeper than \(JSONScanner.maximumDepth) levels"
        case .trailingData: "unexpected data after the value"
        }
        return "\(what) at byte \(offset)"
    }
}
