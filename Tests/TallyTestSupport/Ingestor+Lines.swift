import TallyIngest
import TallySQLite

extension Ingestor {
    /// Stores `lines` as one NDJSON input named `file` through `store(group:)`, the way
    /// `report serve` stores request bodies: `groupSize` records per group, so one commit each;
    /// returns each record's outcome. Origins carry each line's number in the whole input.
    @discardableResult
    public func store(lines: [String], file: String = "t", groupSize: Int = .max) throws -> [IngestOutcome] {
        let reader = try EventFileReader(bytes: Array(lines.joined(separator: "\n").utf8), name: file)
        var groups: [ValidatedChunk] = []
        var chunk = ValidatedChunk(capacity: min(groupSize, lines.count))
        try reader.forEachRecord { record in
            chunk.append(record, origin: RecordOrigin(file: file, line: record.line, element: record.index))
            if chunk.entries.count >= groupSize {
                groups.append(chunk)
                chunk = ValidatedChunk(capacity: min(groupSize, lines.count))
            }
        }
        if !chunk.entries.isEmpty { groups.append(chunk) }
        return try groups.flatMap { try store(group: [$0])[0] }
    }
}
