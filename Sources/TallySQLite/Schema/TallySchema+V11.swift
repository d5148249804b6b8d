import TallyIngest

extension TallySchema {
    /// Version 11: the rollups of the feed filters (`ImpressionSlices`) keyed by feed position
    /// as well as model, so that `dislike-rate` by position (its default grouping, position
    /// buckets) and `compare --by model,position` under `--from/--to/--platform/--app-version`
    /// read counters per (local date, platform, app version, model, position, user) instead of
    /// the feed events.
    ///
    /// An impression now counts in the cells when it holds one (slice, model, position), and is
    /// kept whole in `spanning_impression_slices` otherwise; `model_user_days` sums its cells
    /// over the positions. The tables are made anew and `fillSlices` fills them from the events.
    static let v11 = """
    DROP VIEW impression_slices;
    DROP TABLE impression_slices_settled;
    DROP TABLE impression_slices_recent;
    -- Per (user, impression): its one (slice, model, position) with what it holds (ImpressionSlices),
    -- or spans = 1 and the columns NULL when it holds several, kept in spanning_impression_slices.
    \(impressionSlices("impression_slices_settled"))
    \(impressionSlices("impression_slices_recent"))
    CREATE VIEW impression_slices AS
        SELECT * FROM impression_slices_settled UNION ALL SELECT * FROM impression_slices_recent;

    -- The (slice, model, position) rows of the impressions that hold several: whether an exposure
    -- event of the slice names the model and position, and the slice's newest feedback event when
    -- it names them.
    DROP TABLE spanning_impression_slices;
    CREATE TABLE spanning_impression_slices (
        user_id       TEXT NOT NULL,
        impression_id TEXT NOT NULL,
        local_date    TEXT NOT NULL,
        platform      TEXT,
        app_version   TEXT,
        model_info    TEXT,
        feed_position INTEGER,
        exposed       INTEGER NOT NULL,
        reaction_ts   INTEGER,
        reaction_key  TEXT,
        feedback_type TEXT
    );
    CREATE INDEX spanning_impression_slices_key ON spanning_impression_slices (user_id, impression_id);

    -- Dislike-rate counters per local date, platform, app version, model version, feed position
    -- and user of the impressions that hold one (slice, model, position); a missing value is the
    -- empty blob. model_user_days holds their sums over the positions.
    CREATE TABLE model_position_user_days (
        local_date    TEXT NOT NULL,
        platform      NOT NULL,
        app_version   NOT NULL,
        model_info    NOT NULL,
        feed_position NOT NULL,
        user_id       TEXT NOT NULL,
        exposed       INTEGER NOT NULL,
        feedback_only INTEGER NOT NULL,
        likes         INTEGER NOT NULL,
        dislikes      INTEGER NOT NULL,
        PRIMARY KEY (local_date, platform, app_version, model_info, feed_position, user_id)
    ) WITHOUT ROWID;
    DELETE FROM model_user_days;

    -- The feed positions, local dates, platforms and app versions of the exposure and feedback
    -- events naming each model; a missing position is the empty blob.
    DROP TABLE model_days;
    CREATE TABLE model_days (
        model_info    TEXT NOT NULL,
        feed_position NOT NULL,
        local_date    TEXT NOT NULL,
        platform      NOT NULL,
        app_version   NOT NULL,
        PRIMARY KEY (model_info, feed_position, local_date, platform, app_version)
    ) WITHOUT ROWID;
    """

    /// The statement creating a run `name` of `impression_slices`.
    private static func impressionSlices(_ name: String) -> String {
        """
        CREATE TABLE \(name) (
            user_id       TEXT NOT NULL,
            impression_id TEXT NOT NULL,
            spans         INTEGER NOT NULL,
            local_date    TEXT,
            platform      TEXT,
            app_version   TEXT,
            model_info    TEXT,
            feed_position INTEGER,
            exposed       INTEGER,
            reaction_ts   INTEGER,
            reaction_key  TEXT,
            feedback_type TEXT,
            PRIMARY KEY (user_id, impression_id)
        ) WITHOUT ROWID;
        """
    }

    /// Events read into one batch of `fillSlices`.
    static let sliceFillBatch = 50_000

    /// Fills the version 11 rollups from the stored exposure and feedback events, all into the
    /// settled run, and makes the impressions' filter and counts of `StateRuns` again (a store
    /// without such events keeps them).
    @Sendable static func fillSlices(_ db: Database) throws {
        let writer = try ImpressionSliceWriter(database: db, runs: nil)
        var batch = SliceBatch()
        var events = 0, filled = 0
        func flush() throws {
            try writer.write(batch)
            batch = SliceBatch()
            filled += events
            events = 0
        }
        let exposures = try db.prepare("""
            SELECT user_id, impression_id, local_date, platform, app_version, model_info, feed_position FROM exposure_events
            WHERE impression_id IS NOT NULL OR model_info IS NOT NULL
            """)
        while try exposures.step() {
            batch.addExposure(user: exposures.text(0) ?? "", impression: exposures.text(1), at: sliceKey(exposures, from: 2))
            events += 1
            if events == sliceFillBatch { try flush() }
        }
        let feedback = try db.prepare("""
            SELECT user_id, impression_id, local_date, platform, app_version, model_info, feed_position, ts_ms, id, feedback_type
            FROM feedback_events
            """)
        while try feedback.step() {
            let r = feedback
            batch.addFeedback(user: r.text(0) ?? "", impression: r.text(1) ?? "", at: sliceKey(r, from: 2),
                              ImpressionSlices.Reaction(order: OrderKey(timestampMs: r.int64(7), sequence: 0, key: r.text(8) ?? ""),
                                                        kind: r.text(9) ?? ""))
            events += 1
            if events == sliceFillBatch { try flush() }
        }
        try flush()
        guard filled > 0 else { return }
        let (family, tables) = StateRuns.impressions
        var held = (settled: Int64(0), recent: Int64(0))
        for table in tables {
            held.settled += try db.scalarInt("SELECT count(*) FROM \(table.settled)") ?? 0
            held.recent += try db.scalarInt("SELECT count(*) FROM \(table.recent)") ?? 0
        }
        try db.execute("""
            UPDATE state_runs SET settled = \(held.settled), recent = \(held.recent), generation = generation + 1
            WHERE family = '\(family)'
            """)
        try StateRuns.writeFilter(family: family, tables: tables, over: Int(held.settled), in: db)
    }

    /// The (slice, group) in a row's columns `first` to `first + 4` (local date, platform, app
    /// version, model, position).
    private static func sliceKey(_ r: Statement, from first: Int) -> ImpressionSlices.Key {
        ImpressionSlices.Key(slice: ImpressionSlices.Slice(localDate: r.text(first) ?? "", platform: r.text(first + 1),
                                                           appVersion: r.text(first + 2)),
                             modelInfo: r.text(first + 3), feedPosition: r.isNull(first + 4) ? nil : r.int(first + 4))
    }
}
