/// The store's schema: one table per event family (typed columns plus the raw JSON),
/// rollups kept current at ingest, and the rejected lines. `docs/schema.md` describes it.
public enum TallySchema {
    /// Every migration of the store, oldest first.
    public static let migrator = Migrator(migrations: [
        Migration("v1-events-and-rollups", sql: v1),
        Migration("v2-key-table-and-appended-events", sql: v2, step: fillEventKeys),
        Migration("v3-exposure-members-without-counts", sql: v3),
        Migration("v4-rejected-line-prefix-and-digest", sql: v4, step: cutRejectedLines),
        Migration("v5-observability-index-in-time-order", sql: v5),
        Migration("v6-recent-and-settled-key-runs", sql: v6, step: fillKeyFilter),
        Migration("v7-feed-filter-slices", sql: v7),
        Migration("v8-observability-index-by-date", sql: v8),
        Migration("v9-recent-and-settled-feed-state", sql: v9, step: fillStateFilters),
        Migration("v10-exposure-slices", sql: v10, step: fillExposureSlices),
        Migration("v11-feed-filter-slices-by-position", sql: v11),
        Migration("v12-covering-impression-exposure-indexes", sql: v12),
        Migration("v13-state-runs-settled-by-key-range", sql: v13),
        Migration("v14-one-state-per-impression", sql: v14, step: fillSlices),
    ])

    static let v1 = """
    -- One table per family, one row per distinct idempotency key (the first stored wins), keyed
    -- by it so that time-ordered ids (UUIDv7) append. Every known field has a column; members a
    -- family does not define are kept verbatim in `extra` (a JSON object, NULL when none).
    CREATE TABLE reading_events (
        event_id          TEXT NOT NULL PRIMARY KEY,
        user_id           TEXT NOT NULL,
        session_id        TEXT,
        material_id       TEXT NOT NULL,
        event_type        TEXT NOT NULL,
        ts_ms             INTEGER NOT NULL,
        tz_minutes        INTEGER NOT NULL,
        local_date        TEXT NOT NULL,
        sequence          INTEGER,
        active_seconds    INTEGER NOT NULL,
        progress          REAL,
        position          TEXT,
        target_type       TEXT NOT NULL,
        title             TEXT,
        knowledge_base_id TEXT,
        platform          TEXT,
        app_version       TEXT,
        extra             TEXT
    ) WITHOUT ROWID;

    CREATE TABLE feedback_events (
        id            TEXT NOT NULL PRIMARY KEY,
        user_id       TEXT NOT NULL,
        ts_ms         INTEGER NOT NULL,
        tz_minutes    INTEGER NOT NULL,
        local_date    TEXT NOT NULL,
        feedback_type TEXT NOT NULL,
        reason        TEXT,
        impression_id TEXT NOT NULL,
        model_info    TEXT NOT NULL,
        feed_position INTEGER NOT NULL,
        item_id       TEXT,
        context       TEXT NOT NULL,
        platform      TEXT,
        app_version   TEXT,
        extra         TEXT
    ) WITHOUT ROWID;

    CREATE TABLE exposure_events (
        event_id         TEXT NOT NULL PRIMARY KEY,
        user_id          TEXT NOT NULL,
        ts_ms            INTEGER NOT NULL,
        tz_minutes       INTEGER NOT NULL,
        local_date       TEXT NOT NULL,
        page_id          TEXT,
        page_instance_id TEXT NOT NULL,
        item_id          TEXT NOT NULL,
        impression_id    TEXT,
        model_info       TEXT,
        feed_position    INTEGER,
        visible_ratio    REAL,
        dwell_ms         INTEGER,
        platform         TEXT,
        app_version      TEXT,
        extra            TEXT
    ) WITHOUT ROWID;

    CREATE TABLE observability_events (
        event_id    TEXT NOT NULL PRIMARY KEY,
        user_id     TEXT NOT NULL,
        ts_ms       INTEGER NOT NULL,
        tz_minutes  INTEGER NOT NULL,
        local_date  TEXT NOT NULL,
        event_name  TEXT NOT NULL,
        session_id  TEXT NOT NULL,
        properties  TEXT NOT NULL,
        platform    TEXT,
        app_version TEXT,
        extra       TEXT
    ) WITHOUT ROWID;
    -- Covers `latency` and `top` (for everyone or one user): the events of one name are read
    -- from the index alone, in order, instead of one lookup by event id each.
    CREATE INDEX observability_events_name ON observability_events (event_name, user_id, properties, app_version);

    -- Active seconds and event counts per user, local date and material.
    CREATE TABLE reading_daily (
        user_id        TEXT NOT NULL,
        local_date     TEXT NOT NULL,
        material_id    TEXT NOT NULL,
        active_seconds INTEGER NOT NULL,
        events         INTEGER NOT NULL,
        PRIMARY KEY (user_id, local_date, material_id)
    ) WITHOUT ROWID;

    -- The same for all users together.
    CREATE TABLE reading_daily_all (
        local_date     TEXT NOT NULL,
        material_id    TEXT NOT NULL,
        active_seconds INTEGER NOT NULL,
        events         INTEGER NOT NULL,
        PRIMARY KEY (local_date, material_id)
    ) WITHOUT ROWID;

    -- Per user and material: totals, completion, and the newest event, title and position
    -- (each with its ordering key: timestamp, sequence, event id).
    CREATE TABLE material_state (
        user_id        TEXT NOT NULL,
        material_id    TEXT NOT NULL,
        events         INTEGER NOT NULL,
        active_seconds INTEGER NOT NULL,
        completions    INTEGER NOT NULL,
        last_ts        INTEGER NOT NULL,
        last_seq       INTEGER NOT NULL,
        last_key       TEXT NOT NULL,
        target_type    TEXT NOT NULL,
        title          TEXT,
        title_ts       INTEGER,
        title_seq      INTEGER,
        title_key      TEXT,
        position       TEXT,
        progress       REAL,
        position_ts    INTEGER,
        position_seq   INTEGER,
        position_key   TEXT,
        PRIMARY KEY (user_id, material_id)
    ) WITHOUT ROWID;

    -- Per user: the newest reading event, whose offset is the user's zone for "today".
    CREATE TABLE reading_user_state (
        user_id    TEXT NOT NULL PRIMARY KEY,
        last_ts    INTEGER NOT NULL,
        last_seq   INTEGER NOT NULL,
        last_key   TEXT NOT NULL,
        tz_minutes INTEGER NOT NULL
    ) WITHOUT ROWID;

    -- Per user and impression: the newest feedback event (the final reaction).
    CREATE TABLE impression_reactions (
        user_id       TEXT NOT NULL,
        impression_id TEXT NOT NULL,
        ts_ms         INTEGER NOT NULL,
        reaction_key  TEXT NOT NULL,
        feedback_type TEXT NOT NULL,
        reason        TEXT,
        model_info    TEXT NOT NULL,
        feed_position INTEGER NOT NULL,
        PRIMARY KEY (user_id, impression_id)
    ) WITHOUT ROWID;

    -- Distinct (user, impression) of exposure events per group.
    CREATE TABLE impression_exposures (
        user_id       TEXT NOT NULL,
        impression_id TEXT NOT NULL,
        model_info    TEXT,
        feed_position INTEGER
    );
    CREATE INDEX impression_exposures_key ON impression_exposures (user_id, impression_id);

    -- Per (page instance, item): the earliest exposure event and how many events it had.
    CREATE TABLE exposure_firsts (
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

    -- Dislike-rate counters per group of model version and feed position (metrics.md): distinct
    -- (user, impression) exposed in the group, those whose final feedback is in the group without
    -- an exposure there, and final likes and dislikes. NULL group keys are groups too.
    CREATE TABLE dislike_groups (
        model_info    TEXT,
        feed_position INTEGER,
        exposed       INTEGER NOT NULL,
        feedback_only INTEGER NOT NULL,
        likes         INTEGER NOT NULL,
        dislikes      INTEGER NOT NULL
    );
    CREATE INDEX dislike_groups_key ON dislike_groups (model_info, feed_position);

    -- How often each reason was given for a final dislike, per group.
    CREATE TABLE dislike_reasons (
        model_info    TEXT NOT NULL,
        feed_position INTEGER NOT NULL,
        reason        TEXT NOT NULL,
        count         INTEGER NOT NULL,
        PRIMARY KEY (model_info, feed_position, reason)
    ) WITHOUT ROWID;

    -- Exposure-count rows per dimension (day, page, item, model, position) and group value, and
    -- the items and users behind each group with how many (page instance, item) pairs they have.
    -- A missing group value (no pageId, modelInfo or feedPosition) is stored as the empty blob,
    -- which sorts after every text and number.
    CREATE TABLE exposure_groups (
        dimension    TEXT NOT NULL,
        group_value  NOT NULL,
        exposures    INTEGER NOT NULL,
        duplicates   INTEGER NOT NULL,
        unique_items INTEGER NOT NULL,
        unique_users INTEGER NOT NULL,
        PRIMARY KEY (dimension, group_value)
    ) WITHOUT ROWID;
    CREATE TABLE exposure_group_members (
        dimension   TEXT NOT NULL,
        group_value NOT NULL,
        kind        TEXT NOT NULL,
        member      TEXT NOT NULL,
        pairs       INTEGER NOT NULL,
        PRIMARY KEY (dimension, group_value, kind, member)
    ) WITHOUT ROWID;

    -- Observability events per name and user, for `top --by userId`.
    CREATE TABLE event_user_counts (
        event_name TEXT NOT NULL,
        user_id    TEXT NOT NULL,
        count      INTEGER NOT NULL,
        PRIMARY KEY (event_name, user_id)
    ) WITHOUT ROWID;

    -- Counters about the store itself, such as impressions seen in more than one group.
    CREATE TABLE rollup_counters (
        name  TEXT NOT NULL PRIMARY KEY,
        value INTEGER NOT NULL
    ) WITHOUT ROWID;

    -- Lines that failed validation, kept verbatim; a re-run does not add them twice.
    CREATE TABLE rejected_lines (
        id         INTEGER PRIMARY KEY,
        file       TEXT NOT NULL,
        line       INTEGER NOT NULL,
        element    INTEGER,
        code       TEXT NOT NULL,
        field      TEXT,
        message    TEXT NOT NULL,
        event_key  TEXT,
        raw        TEXT NOT NULL
    );
    CREATE UNIQUE INDEX rejected_lines_origin ON rejected_lines (file, line, ifnull(element, -1), raw);
    """
}
