import TallyIngest

extension TallySchema {
    /// Version 14: one state per impression. `impression_exposures` (its exposure groups) and
    /// `impression_reactions` (its newest feedback event) held what `impression_slices` and
    /// `spanning_impression_slices` hold per slice, but for the feedback's reason: every
    /// feedback event kept its impression twice, in two B-trees, and every impression stored
    /// before was read from three tables. The slice tables gain `reason`, are made anew and
    /// filled from the events (`fillSlices`); the two tables become views over them, so that
    /// SQL reading them reads the same rows. `model_position_users` and `model_users` sum the
    /// counters of `model_position_user_days` and `model_user_days` over the dates, for the
    /// comparisons of all dates.
    static let v14 = """
    DROP VIEW impression_exposures;
    DROP TABLE impression_exposures_settled;
    DROP TABLE impression_exposures_recent;
    DROP TABLE impression_reactions;
    DROP VIEW impression_slices;
    DROP TABLE impression_slices_settled;
    DROP TABLE impression_slices_recent;
    DROP TABLE spanning_impression_slices;

    -- Per (user, impression): its one (slice, model, position) with what it holds (ImpressionSlices),
    -- or spans = 1 and the columns NULL when it holds several, kept in spanning_impression_slices.
    \(impressionSlices("impression_slices_settled", reason: true))
    \(impressionSlices("impression_slices_recent", reason: true))
    CREATE VIEW impression_slices AS
        SELECT * FROM impression_slices_settled UNION ALL SELECT * FROM impression_slices_recent;

    -- The (slice, model, position) rows of the impressions that hold several: whether an exposure
    -- event of the slice names the model and position, and the slice's newest feedback event when
    -- it names them.
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
        feedback_type TEXT,
        reason        TEXT
    );
    CREATE INDEX spanning_impression_slices_key ON spanning_impression_slices (user_id, impression_id);

    -- Per user and impression: the newest feedback event (the final reaction), the newest of its
    -- slices' newest.
    CREATE VIEW impression_reactions AS
        SELECT user_id, impression_id, reaction_ts AS ts_ms, reaction_key, feedback_type, reason, model_info, feed_position
        FROM impression_slices WHERE spans = 0 AND reaction_key IS NOT NULL
        UNION ALL
        SELECT user_id, impression_id, ts_ms, reaction_key, feedback_type, reason, model_info, feed_position FROM (
            SELECT user_id, impression_id, reaction_ts AS ts_ms, reaction_key, feedback_type, reason, model_info,
                feed_position,
                row_number() OVER (PARTITION BY user_id, impression_id ORDER BY reaction_ts DESC, reaction_key DESC) AS newest
            FROM spanning_impression_slices WHERE reaction_key IS NOT NULL)
        WHERE newest = 1;

    -- Distinct (user, impression) of exposure events per group.
    CREATE VIEW impression_exposures AS
        SELECT user_id, impression_id, model_info, feed_position FROM impression_slices WHERE spans = 0 AND exposed = 1
        UNION ALL
        SELECT DISTINCT user_id, impression_id, model_info, feed_position FROM spanning_impression_slices WHERE exposed = 1;

    DELETE FROM model_user_days;
    DELETE FROM model_position_user_days;
    -- The same counters summed over the local dates, keyed by model, position and user first, for
    -- the comparisons by position without a date window (model_position_user_days holds a row per
    -- day: 1.6M rows at 10M events against 100,000 (model, position, user)).
    CREATE TABLE model_position_users (
        model_info    NOT NULL,
        feed_position NOT NULL,
        user_id       TEXT NOT NULL,
        platform      NOT NULL,
        app_version   NOT NULL,
        exposed       INTEGER NOT NULL,
        feedback_only INTEGER NOT NULL,
        likes         INTEGER NOT NULL,
        dislikes      INTEGER NOT NULL,
        PRIMARY KEY (model_info, feed_position, user_id, platform, app_version)
    ) WITHOUT ROWID;
    -- And summed over the positions, for the comparisons by model without a date window.
    CREATE TABLE model_users (
        model_info    NOT NULL,
        user_id       TEXT NOT NULL,
        platform      NOT NULL,
        app_version   NOT NULL,
        exposed       INTEGER NOT NULL,
        feedback_only INTEGER NOT NULL,
        likes         INTEGER NOT NULL,
        dislikes      INTEGER NOT NULL,
        PRIMARY KEY (model_info, user_id, platform, app_version)
    ) WITHOUT ROWID;
    UPDATE state_runs SET settled = 0, recent = 0, swept_first = NULL, swept_second = NULL
    WHERE family = 'impressions';
    """

    /// Events read into one batch of `fillSlices`.
    static let sliceFillBatch = 50_000

    /// Fills the per-impression state and the filters' counters from the stored exposure and
    /// feedback events, all into the settled run, and makes the impressions' filter and counts of
    /// `StateRuns` again (a store without such events keeps them). `dislike_groups` and the
    /// other counters without filters hold these events already: the writer's change in them is
    /// not applied.
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
            SELECT user_id, impression_id, local_date, platform, app_version, model_info, feed_position, ts_ms, id, feedback_type,
                reason
            FROM feedback_events
            """)
        while try feedback.step() {
            let r = feedback
            batch.addFeedback(user: r.text(0) ?? "", impression: r.text(1) ?? "", at: sliceKey(r, from: 2),
                              ImpressionSlices.Reaction(order: OrderKey(timestampMs: r.int64(7), sequence: 0, key: r.text(8) ?? ""),
                                                        kind: r.text(9) ?? "", reason: r.text(10)))
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
