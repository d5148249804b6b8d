import Foundation
import TallyEvents

/// One bearer token of `report serve` and what it may do (`TokenScope`).
public struct AccessToken: Sendable {
    /// The token's bytes.
    let secret: [UInt8]
    /// What the token allows.
    public let scopes: Set<TokenScope>

    /// `secret` allowed `scopes`.
    public init(_ secret: String, scopes: Set<TokenScope>) {
        self.secret = Array(secret.utf8)
        self.scopes = scopes
    }

    /// The tokens of a token list: one a line (`;` also ends a line, for an environment
    /// variable), each `SCOPE[,SCOPE...] TOKEN` such as `read,write 8f2c…`; blank lines and
    /// lines starting with `#` are skipped. `source` names the list in errors, which never
    /// show a token.
    ///
    /// - Throws: `ListError` naming the line and the field: an unknown scope, a missing
    ///   token, a token with spaces, or a token listed twice.
    public static func parse(_ text: String, source: String) throws -> [AccessToken] {
        var tokens: [AccessToken] = []
        var lines: [String: Int] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for part in raw.split(separator: ";", omittingEmptySubsequences: false) {
                let line = part.trimmingCharacters(in: .whitespaces)
                guard !line.isEmpty, !line.hasPrefix("#") else { continue }
                let number = index + 1
                func failure(_ field: String, _ message: String) -> ListError {
                    ListError(source: source, line: number, field: field, message: message)
                }
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard fields.count == 2 else {
                    throw failure("token", fields.count < 2 ? "expected SCOPES TOKEN, such as \"read,write <token>\"; the token is missing"
                                                            : "expected SCOPES TOKEN; a token has no spaces")
                }
                var scopes = Set<TokenScope>()
                for name in fields[0].split(separator: ",", omittingEmptySubsequences: false) {
                    guard let scope = TokenScope(rawValue: String(name)) else {
                        throw failure("scopes", "unknown scope \(JSONText.quote(String(name))); the scopes are "
                                      + TokenScope.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    scopes.insert(scope)
                }
                let secret = String(fields[1])
                if let first = lines[secret] {
                    throw failure("token", "the same token is listed on line \(first) already")
                }
                lines[secret] = number
                tokens.append(AccessToken(secret, scopes: scopes))
            }
        }
        return tokens
    }

    /// A token list that cannot be read: where, which field, and why (never the token).
    public struct ListError: Error, CustomStringConvertible {
        /// The file or variable.
        public let source: String
        /// The 1-based line.
        public let line: Int
        /// `scopes` or `token`.
        public let field: String
        /// What is wrong.
        public let message: String

        /// `FILE, line N, FIELD: what is wrong.`
        public var description: String { "\(source), line \(line), \(field): \(message)." }
    }
}
