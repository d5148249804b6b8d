import TallyIngest

extension TallySchema {
    /// Version 2: dedup through a key-only table, event rows appended in arrival order.
    ///
    /// Random keys (UUIDv4) made every batch rewrite pages all over the wide, key-ordered event
    /// tables; now the only structure in key order is `event_keys`, about 20 bytes a key, and
    /// the event tables are rowid tables that grow at their end. Existing stores are copied
    /// over (keeping their rows' order) and their keys filled in by `fillEventKeys`.
    static let v2 = """
    -- One row per stored event: its family and idempotency key in compact form (EventKey).
    CREATE TABLE event_keys (key BLOB NOT NULL PRIMARY KEY) WITHOUT ROWID;
    DROP INDEX observability_events_name;
    ALTER TABLE reading_events RENAME TO reading_events_v1;
    CREATE TABLE reading_events (
        event_id          TEXT NOT NULL,
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
    );
    INSERT INTO reading_events SELECT * FROM reading_events_v1;
    DROP TABLE reading_events_v1;
    ALTER TABLE feedback_events RENAME TO feedback_events_v1;
    CREATE TABLE feedback_events (
        id            TEXT NOT NULL,
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
    );
    INSERT INTO feedback_events SELECT * FROM feedback_events_v1;
    DROP TABLE feedback_events_v1;
    ALTER TABLE exposure_events RENAME TO exposure_events_v1;
    CREATE TABLE exposure_events (
        event_id         TEXT NOT NULL,
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
    );
    INSERT INTO exposure_events SELECT * FROM exposure_events_v1;
    DROP TABLE exposure_events_v1;
    ALTER TABLE observability_events RENAME TO observability_events_v1;
    CREATE TABLE observability_events (
        event_id    TEXT NOT NULL,
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
    );
    INSERT INTO observability_events SELECT * FROM observability_events_v1;
    DROP TABLE observability_events_v1;
    CREATE INDEX observability_events_name ON observability_events (event_name, user_id, properties, app_version);
    """

    /// The event tables, the column holding their idempotency key and their `EventKey` family.
    static let eventTables: [(table: String, key: String, family: UInt8)] = [
        ("reading_events", "event_id", EventKey.reading), ("feedback_events", "id", EventKey.feedback),
        ("exposure_events", "event_id", EventKey.exposure), ("observability_events", "event_id", EventKey.observability),
    ]

    /// Fills `event_keys` with the keys of the events already stored.
    @Sendable static func fillEventKeys(_ db: Database) throws {
        let insert = try db.prepare("INSERT INTO event_keys (key) VALUES (?)")
        for (table, column, family) in eventTables {
            let keys = try db.prepare("SELECT \(column) FROM \(table)")
            while try keys.step() {
                EventKey.withCompact(keys.text(0) ?? "", family: family) { insert.bindBlob($0, at: 1) }
                try insert.run()
            }
        }
    }
}
