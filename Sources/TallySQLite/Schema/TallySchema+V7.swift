extension TallySchema {
    /// Version 7: the rollups of the feed filters and the model comparison (`ImpressionSlices`),
    /// so that `dislike-rate --by model` with `--from/--to/--platform/--app-version` and
    /// `compare --by model` read counters per (local date, platform, app version, model, user)
    /// instead of the feed events. Version 10 keys them by feed position too and fills them (for
    /// existing stores, from their events).
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
}
