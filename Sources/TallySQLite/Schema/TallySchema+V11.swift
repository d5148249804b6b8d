extension TallySchema {
    /// Version 11: the rollups of the feed filters (`ImpressionSlices`) keyed by feed position
    /// as well as model, so that `dislike-rate` by position (its default grouping, position
    /// buckets) and `compare --by model,position` under `--from/--to/--platform/--app-version`
    /// read counters per (local date, platform, app version, model, position, user) instead of
    /// the feed events.
    ///
    /// An impression now counts in the cells when it holds one (slice, model, position), and is
    /// kept whole in `spanning_impression_slices` otherwise; `model_user_days` sums its cells
    /// over the positions. The tables are made anew, empty: version 14 makes them anew again and
    /// fills them from the events (`fillSlices`).
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

    /// The statement creating a run `name` of `impression_slices`: as version 11 made it, or with
    /// the feedback's `reason` (version 14).
    static func impressionSlices(_ name: String, reason: Bool = false) -> String {
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
            feedback_type TEXT,\(reason ? "\n    reason        TEXT," : "")
            PRIMARY KEY (user_id, impression_id)
        ) WITHOUT ROWID;
        """
    }
}
