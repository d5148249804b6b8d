import TallyIngest

extension TallySchema {
    /// Version 7: the rollups of the feed filters and the model comparison (`ImpressionSlices`),
    /// so that `dislike-rate --by model` with `--from/--to/--platform/--app-version` and
    /// `compare --by model` read counters per (local date, platform, app version, model, user)
    /// instead of the feed events. Existing stores are filled from their events by `fillSlices`.
    static let v7 = """
    -- Per (user, impression): its one (slice, model) with what it holds (ImpressionSlices), or
    -- spans = 1 and the columns NULL when it holds several, kept in spanning_impression_slices.
    CREATE TABLE impression_slices (
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

    -- The (slice, model) rows of the impressions that hold several: whether an exposure event of
    -- the slice names the model, and the slice's newest feedback event when it names the model.
    CREATE TABLE spanning_impression_slices (
        user_id       TEXT NOT NULL,
        impression_id TEXT NOT NULL,
        local_date    TEXT NOT NULL,
        platform      TEXT,
        app_version   TEXT,
        model_info    TEXT,
        exposed       INTEGER NOT NULL,
        reaction_ts   INTEGER,
        reaction_key  TEXT,
        feedback_type TEXT
    );
    CREATE INDEX spanning_impression_slices_key ON spanning_impression_slices (user_id, impression_id);

    -- Dislike-rate counters per local date, platform, app version, model version and user of the
    -- impressions that hold one (slice, model); a missing value is the empty blob.
    CREATE TABLE model_user_days (
        local_date    TEXT NOT NULL,
        platform      NOT NULL,
        app_version   NOT NULL,
        model_info    NOT NULL,
        user_id       TEXT NOT NULL,
        exposed       INTEGER NOT NULL,
        feedback_only INTEGER NOT NULL,
        likes         INTEGER NOT NULL,
        dislikes      INTEGER NOT NULL,
        PRIMARY KEY (local_date, platform, app_version, model_info, user_id)
    ) WITHOUT ROWID;

    -- The local dates, platforms and app versions of the exposure and feedback events naming each model.
    CREATE TABLE model_days (
        model_info  TEXT NOT NULL,
        local_date  TEXT NOT NULL,
        platform    NOT NULL,
        app_version NOT NULL,
        PRIMARY KEY (model_info, local_date, platform, app_version)
    ) WITHOUT ROWID;
    """

    /// Events read into one batch of `fillSlices`.
    static let sliceFillBatch = 200_000

    /// Fills the version 7 rollups from the stored exposure and feedback events.
    @Sendable static func fillSlices(_ db: Database) throws {
        let writer = try ImpressionSliceWriter(database: db, runs: nil)
        var batch = SliceBatch()
        var events = 0
        func flush() throws {
            try writer.write(batch)
            batch = SliceBatch()
            events = 0
        }
        let exposures = try db.prepare("""
            SELECT user_id, impression_id, local_date, platform, app_version, model_info FROM exposure_events
            WHERE impression_id IS NOT NULL OR model_info IS NOT NULL
            """)
        while try exposures.step() {
            batch.addExposure(user: exposures.text(0) ?? "", impression: exposures.text(1), at: sliceKey(exposures, from: 2))
            events += 1
            if events == sliceFillBatch { try flush() }
        }
        let feedback = try db.prepare("""
            SELECT user_id, impression_id, local_date, platform, app_version, model_info, ts_ms, id, feedback_type FROM feedback_events
            """)
        while try feedback.step() {
            let r = feedback
            batch.addFeedback(user: r.text(0) ?? "", impression: r.text(1) ?? "", at: sliceKey(r, from: 2),
                              ImpressionSlices.Reaction(order: OrderKey(timestampMs: r.int64(6), sequence: 0, key: r.text(7) ?? ""),
                                                        kind: r.text(8) ?? ""))
            events += 1
            if events == sliceFillBatch { try flush() }
        }
        try flush()
    }

    /// The (slice, model) in a row's columns `first` to `first + 3` (local date, platform, app version, model).
    private static func sliceKey(_ r: Statement, from first: Int) -> ImpressionSlices.Key {
        ImpressionSlices.Key(slice: ImpressionSlices.Slice(localDate: r.text(first) ?? "", platform: r.text(first + 1),
                                                           appVersion: r.text(first + 2)), modelInfo: r.text(first + 3))
    }
}
