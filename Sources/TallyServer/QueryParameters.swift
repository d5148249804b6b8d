/// The parameters of a URL's query string, decoded as HTML forms encode them (`+` is a space,
/// `%XX` a byte of UTF-8).
struct QueryParameters: Sendable {
    /// Name and value pairs in order; a name may repeat.
    private(set) var pairs: [(name: String, value: String)] = []

    /// Parses `query` (the part after `?`, without it); nil gives no parameters.
    init(_ query: String?) throws {
        guard let query, !query.isEmpty else { return }
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = part.firstIndex(of: "=")
            let name = try Self.decode(part[..<(equals ?? part.endIndex)])
            let value = try equals.map { try Self.decode(part[part.index(after: $0)...]) } ?? ""
            pairs.append((name, value))
        }
    }

    /// The value of `name`; a parameter given twice is an error.
    func value(_ name: String) throws -> String? {
        let values = pairs.filter { $0.name == name }
        guard values.count <= 1 else { throw APIError.invalidParameter("\(name) is given \(values.count) times; give it once.") }
        return values.first?.value
    }

    /// Refuses a parameter not in `allowed`, so that a misspelt one is not silently ignored.
    func requireOnly(_ allowed: Set<String>) throws {
        if let unknown = pairs.first(where: { !allowed.contains($0.name) }) {
            throw APIError.invalidParameter("Unknown parameter \"\(unknown.name)\"; this endpoint takes \(allowed.sorted().joined(separator: ", ")).")
        }
    }

    private static func decode(_ text: Substring) throws -> String {
        try PercentDecoding.decode(text, plusIsSpace: true, place: "The query string")
    }
}
