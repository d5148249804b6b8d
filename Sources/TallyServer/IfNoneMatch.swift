/// The entity tags of `If-None-Match` headers (RFC 9110 §13.1.2, weak comparison).
struct IfNoneMatch: Sendable {
    private let tags: [Substring]
    private let any: Bool

    /// Parses the header's values, each a comma-separated list or `*`.
    init(_ values: [String]) {
        var tags: [Substring] = []
        var any = false
        for value in values {
            for part in value.split(separator: ",") {
                var tag = part.drop { $0 == " " || $0 == "\t" }
                while tag.last == " " || tag.last == "\t" { tag = tag.dropLast() }
                if tag == "*" { any = true }
                if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
                tags.append(tag)
            }
        }
        self.tags = tags
        self.any = any
    }

    /// Whether the client already holds the representation tagged `eTag` (quoted).
    func matches(_ eTag: String) -> Bool {
        any || tags.contains { $0 == eTag[...] }
    }
}
