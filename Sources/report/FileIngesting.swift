import TallyClickHouse
import TallyStore

/// What `report ingest` needs of a backend's ingestor: read a file, report rejections and
/// progress, and keep counts.
protocol FileIngesting: AnyObject {
    /// Counts since the ingestor was created.
    var counts: IngestCounts { get }
    /// Reads one event file (or `-` for stdin) and stores its records; returns this file's counts.
    func ingest(file path: String, onRejection: Ingestor.RejectionHandler,
                onProgress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void) throws -> IngestCounts
}

extension Ingestor: FileIngesting {}
extension ClickHouseIngestor: FileIngesting {}
