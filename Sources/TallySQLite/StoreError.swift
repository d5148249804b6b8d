/// Failures of the store that a user can act on; each description is one sentence.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// No database file at the path.
    case missingStore(path: String)
    /// The file is not a Tally store of this version.
    case notATallyStore(path: String)
    /// The store records a migration this Tally does not know (`storeVersion`, its newest such):
    /// a newer Tally wrote it; `version` is this Tally's newest migration.
    case newerStore(path: String, storeVersion: String, version: String)
    /// A table the store keeps for itself lacks what every store has (`detail` says what).
    case damagedStore(detail: String)

    /// One sentence for people.
    public var description: String {
        switch self {
        case .missingStore(let path):
            "No Tally store at \(path): run `report ingest FILE --db \(path)` first, or pass --db."
        case .notATallyStore(let path):
            "\(path) is not a Tally store of this version: ingest into it with `report ingest` to create or upgrade it."
        case .newerStore(let path, let storeVersion, let version):
            "\(path) was written by a newer Tally (schema \(storeVersion)); this Tally knows schemas up to \(version): use a newer `report`."
        case .damagedStore(let detail):
            "The store is damaged (\(detail)): restore it from a copy, or ingest its files again into a new store."
        }
    }
}
