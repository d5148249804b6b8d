import TallyEvents

extension Ingestor {
    /// Reads one event file (or `-` for stdin) and stores its records; returns this file's counts.
    ///
    /// `onRejection` hears about every rejected record; `onProgress` gets the bytes read so far
    /// and the file's size when known, after every chunk of records.
    public func ingest(file path: String, onRejection: RejectionHandler,
                       onProgress: (_ bytesRead: Int, _ totalBytes: Int?) -> Void = { _, _ in }) throws -> IngestCounts {
        let before = counts
        let reader = try EventFileReader(path: path)
        var sinceProgress = 0
        do {
            try reader.forEachRecord { record in
                let origin = RecordOrigin(file: path, line: record.line, element: record.index)
                if case .rejected(let rejection) = try add(record.bytes, origin: origin, malformed: record.malformed) {
                    onRejection(origin, rejection)
                }
                sinceProgress += 1
                if sinceProgress >= 16_384 {
                    sinceProgress = 0
                    onProgress(reader.bytesRead, reader.totalBytes)
                }
            }
            try commit()
        } catch {
            rollback()
            throw error
        }
        onProgress(reader.bytesRead, reader.totalBytes)
        return IngestCounts(accepted: counts.accepted - before.accepted, duplicates: counts.duplicates - before.duplicates,
                            rejected: counts.rejected - before.rejected)
    }
}
