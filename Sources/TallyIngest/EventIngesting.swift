import TallyEvents

/// Called for every rejected record, in input order (for stderr or a per-event answer).
public typealias RejectionHandler = (RecordOrigin, EventRejection) -> Void

/// A backend's ingest: the one way events reach a store, whether they come from a file, standard
/// input (`report ingest`) or a request body (`report serve`'s writer). The SQLite `Ingestor` and
/// `ClickHouseIngestor` implement it; both validate with `RecordValidator` and store first-wins.
public protocol EventIngesting: AnyObject {
    /// Counts since the ingestor was created.
    var counts: IngestCounts { get }
    /// How many rejected lines of each file read by `ingest(file:)` are kept whole; later ones
    /// keep their file, line, element and code only (`message` and `raw` empty), so a file of
    /// garbage cannot blow up the store. Request bodies, bounded in size, are always kept whole.
    var rejectedLinesKeptInFull: Int { get set }

    /// Reads one event file (or `-` for stdin) and stores its records; returns this file's
    /// counts. `onRejection` hears about every rejected record in input order; `onProgress`
    /// gets the bytes read so far and the file's size when known.
    ///
    /// - Throws: `EventFileError` when the file cannot be read to its end: every record read
    ///   before the damage is stored first.
    func ingest(file path: String, onRejection: RejectionHandler,
                onProgress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void) throws -> IngestCounts

    /// Stores `chunks` together, in order, and returns each chunk's outcomes, one per entry in
    /// entry order. Everything reported accepted is durable when this returns; a record whose
    /// key came earlier in the group is a duplicate, as in a file.
    ///
    /// - Throws: the store's error; no outcome of the group is then reported, and sending the
    ///   same records again stores each once.
    func store(group chunks: [ValidatedChunk]) throws -> [[IngestOutcome]]
}
