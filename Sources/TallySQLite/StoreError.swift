/// Failures of the store that a user can act on; each description is one sentence.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// No database file at the path.
    case missingStore(path: String)
    /// The file is not a Tally store of this version.
    case notATallyStore(path: String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .missingStore(let path):
            "No Tally store at \(path): run `report ingest FILE --db \(path)` first, or pass --db."
        case .notATallyStore(let path):
            "\(path) is not a Tally store of this version: ingest into it with `report ingest` to create or upgrade it."
        }
    }
}
