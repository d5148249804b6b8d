import TallyIngest
import TallySupport

extension TallySchema {
    /// Version 4: a rejected line keeps at most `RejectedLine.prefixBytes` of itself in `raw`,
    /// with the whole line's length (`raw_bytes`) and SHA-256 (`raw_sha256`); the digest, not the
    /// line, makes it unique at its place, so neither the table nor its index holds a huge line.
    /// Rows kept before are cut and described by `cutRejectedLines`.
    static let v4 = """
    DROP INDEX rejected_lines_origin;
    ALTER TABLE rejected_lines ADD COLUMN raw_bytes INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE rejected_lines ADD COLUMN raw_sha256 TEXT NOT NULL DEFAULT '';
    """

    /// Cuts the rejected lines kept whole to their prefix, notes their length and digest, then
    /// makes the digest part of the unique index.
    @Sendable static func cutRejectedLines(_ db: Database) throws {
        let update = try db.prepare("UPDATE rejected_lines SET raw = ?, raw_bytes = ?, raw_sha256 = ? WHERE id = ?")
        let rows = try db.prepare("SELECT id, raw FROM rejected_lines WHERE raw <> ''")
        while try rows.step() {
            let raw = Array((rows.text(1) ?? "").utf8)
            try raw.withUnsafeBytes { whole in
                update.bindText(RejectedLine.prefix(of: whole).assumingMemoryBound(to: UInt8.self), at: 1)
                update.bind(Int64(whole.count), at: 2)
                update.bind(SHA256.hex(whole), at: 3)
                update.bind(rows.int64(0), at: 4)
                try update.run()
            }
        }
        try db.execute("CREATE UNIQUE INDEX rejected_lines_origin ON rejected_lines (file, line, ifnull(element, -1), raw_sha256)")
    }
}
