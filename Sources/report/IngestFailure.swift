/// An ingest that could not run: one sentence, exit status 1.
struct IngestFailure: Error, CustomStringConvertible {
    /// The sentence.
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
