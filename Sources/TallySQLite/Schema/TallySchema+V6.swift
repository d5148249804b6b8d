extension TallySchema {
    /// Version 6: keys are claimed in a small run of recent keys; the settled run (`event_keys`)
    /// is only read, and only for keys its Bloom filter cannot rule out.
    ///
    /// Random keys inserted into one key-ordered table touch every page of it once the batch
    /// outnumbers its pages: each load rewrote the whole table, and, once it outgrew the page
    /// cache, read and wrote pages again and again; the more was stored, the slower. New keys
    /// now go to `event_keys_recent`, kept small, which `KeyRuns.settle` merges into
    /// `event_keys` in key order (one pass over it) once it holds half as many keys as
    /// `event_keys` does: a key is moved about twice over its life, whatever the store's size.
    /// `fillKeyFilter` makes the filter over the keys already stored.
    static let v6 = """
    -- Keys stored since the last settling; with event_keys, every stored key (in one of the two).
    CREATE TABLE event_keys_recent (key BLOB NOT NULL PRIMARY KEY) WITHOUT ROWID;
    -- How many keys each run holds, and which filter goes with event_keys (a new generation at
    -- each settling).
    CREATE TABLE event_key_runs (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        settled    INTEGER NOT NULL,
        recent     INTEGER NOT NULL,
        generation INTEGER NOT NULL
    );
    -- The Bloom filter over event_keys (KeyFilter): the keys it was made for and its bits.
    CREATE TABLE event_key_filter (
        id       INTEGER PRIMARY KEY CHECK (id = 1),
        capacity INTEGER NOT NULL,
        bits     BLOB NOT NULL
    );
    """

    /// Makes the filter over the keys `event_keys` holds.
    @Sendable static func fillKeyFilter(_ db: Database) throws {
        let settled = try db.scalarInt("SELECT count(*) FROM event_keys") ?? 0
        try db.execute("INSERT INTO event_key_runs (id, settled, recent, generation) VALUES (1, \(settled), 0, 1)")
        try KeyRuns.writeFilter(over: Int(settled), in: db)
    }
}
