extension TallySchema {
    /// Version 9: the feed's state keyed by random ids is kept in a settled and a recent run
    /// (`StateRuns`), as version 6 keeps the idempotency keys.
    ///
    /// `exposure_firsts` (by page instance and item), `impression_slices` and
    /// `impression_exposures` (by user and impression) took every new key at a random place:
    /// each load rewrote pages all over them, and once they outgrew the page cache read and
    /// wrote them again and again. New keys now go to `NAME_recent`, kept a fraction of
    /// `NAME_settled`'s size; the settled run is read only for keys its filter cannot rule out.
    /// The view `NAME` shows both runs, so that ad hoc SQL reads the table as before.
    /// `fillStateFilters` makes the filters over the rows already stored.
    static let v9 = """
    ALTER TABLE exposure_firsts RENAME TO exposure_firsts_settled;
    CREATE TABLE exposure_firsts_recent (
        page_instance_id TEXT NOT NULL,
        item_id          TEXT NOT NULL,
        first_ts         INTEGER NOT NULL,
        first_seq        INTEGER NOT NULL,
        first_key        TEXT NOT NULL,
        user_id          TEXT NOT NULL,
        local_date       TEXT NOT NULL,
        page_id          TEXT,
        model_info       TEXT,
        feed_position    INTEGER,
        events           INTEGER NOT NULL,
        PRIMARY KEY (page_instance_id, item_id)
    ) WITHOUT ROWID;
    CREATE VIEW exposure_firsts AS
        SELECT * FROM exposure_firsts_settled UNION ALL SELECT * FROM exposure_firsts_recent;

    ALTER TABLE impression_slices RENAME TO impression_slices_settled;
    CREATE TABLE impression_slices_recent (
        user_id       TEXT NOT NULL,
        impression_id TEXT NOT NULL,
        spans         INTEGER NOT NULL,
        local_date    TEXT,
        platform      TEXT,
        app_version   TEXT,
        model_info    TEXT,
        exposed       INTEGER,
        reaction_ts   INTEGER,
        reaction_key  TEXT,
        feedback_type TEXT,
        PRIMARY KEY (user_id, impression_id)
    ) WITHOUT ROWID;
    CREATE VIEW impression_slices AS
        SELECT * FROM impression_slices_settled UNION ALL SELECT * FROM impression_slices_recent;

    ALTER TABLE impression_exposures RENAME TO impression_exposures_settled;
    CREATE TABLE impression_exposures_recent (
        user_id       TEXT NOT NULL,
        impression_id TEXT NOT NULL,
        model_info    TEXT,
        feed_position INTEGER
    );
    CREATE INDEX impression_exposures_recent_key ON impression_exposures_recent (user_id, impression_id);
    CREATE VIEW impression_exposures AS
        SELECT * FROM impression_exposures_settled UNION ALL SELECT * FROM impression_exposures_recent;

    -- Per family of StateRuns: the rows each run holds, and which filter goes with the settled
    -- run (a new generation at each settling).
    CREATE TABLE state_runs (
        family     TEXT NOT NULL PRIMARY KEY,
        settled    INTEGER NOT NULL,
        recent     INTEGER NOT NULL,
        generation INTEGER NOT NULL
    ) WITHOUT ROWID;
    -- The Bloom filter over each family's settled keys (KeyFilter): the keys it was made for and its bits.
    CREATE TABLE state_run_filters (
        family   TEXT NOT NULL PRIMARY KEY,
        capacity INTEGER NOT NULL,
        bits     BLOB NOT NULL
    );
    """

    /// Makes each family's filter over the rows already stored (all settled).
    @Sendable static func fillStateFilters(_ db: Database) throws {
        for (family, tables) in [StateRuns.exposurePairs, StateRuns.impressions] {
            var settled: Int64 = 0
            for table in tables {
                settled += try db.scalarInt("SELECT count(*) FROM \(table.settled)") ?? 0
            }
            try db.execute("INSERT INTO state_runs (family, settled, recent, generation) VALUES ('\(family)', \(settled), 0, 1)")
            try StateRuns.writeFilter(family: family, tables: tables, over: Int(settled), in: db)
        }
    }
}
