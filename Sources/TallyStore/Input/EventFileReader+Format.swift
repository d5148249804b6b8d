extension EventFileReader {
    /// How an input is laid out (`events.md`, "One event is one JSON object").
    public enum Format: String, Sendable, Equatable {
        /// JSONEachRow: one JSON value a line.
        case ndjson
        /// A batch file that is one JSON array of events.
        case batchArray
        /// A batch file that is one object whose `events` key holds the array of events.
        case batchObject
    }
}
