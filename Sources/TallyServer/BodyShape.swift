import TallyIngest
import TallySQLite

/// The body a write endpoint takes (`api.md`, write side).
enum BodyShape: Sendable {
    /// `{"events": [...]}`: `POST /learning/reading-events/batch`.
    case batchObject
    /// `[...]`: `POST /v1/feedback/batch`.
    case batchArray
    /// NDJSON or either batch: `POST /events`, ClickHouse's JSONEachRow insert.
    case any

    /// Refuses a body laid out otherwise.
    func check(_ format: EventFileReader.Format) throws {
        switch (self, format) {
        case (.any, _), (.batchObject, .batchObject), (.batchArray, .batchArray):
            return
        case (.batchObject, _):
            throw APIError.invalidBody("The body must be a JSON object {\"events\": [...]}.")
        case (.batchArray, _):
            throw APIError.invalidBody("The body must be a JSON array of events.")
        }
    }
}
