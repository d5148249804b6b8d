/// A store that takes validated request bodies in groups and answers per record: what
/// `report serve`'s writer needs of a backend (the SQLite `Ingestor`, ClickHouse's ingestor).
public protocol ChunkStoring: AnyObject {
    /// Stores `chunks` together, in order, and returns each chunk's outcomes, one per entry in
    /// entry order. Everything reported accepted is durable when this returns; a record whose
    /// key came earlier in the group is a duplicate, as in a file.
    ///
    /// - Throws: the store's error; no outcome of the group is then reported, and sending the
    ///   same records again stores each once.
    func store(group chunks: [ValidatedChunk]) throws -> [[IngestOutcome]]
}
