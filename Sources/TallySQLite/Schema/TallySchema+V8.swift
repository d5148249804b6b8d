extension TallySchema {
    /// Version 8: the rollups of the filtered exposure counts (`ExposureSliceWriter`), so that
    /// `exposures` with `--from/--to/--platform/--app-version` reads the exposures of the kept
    /// local dates, platforms and app versions instead of ranking every exposure event. The SQL
    /// fills them from the stored exposure events as the ingest would have.
    static let v8 = """
    -- Exposure counts per local date, platform, app version and the first event's page, model,
    -- position, item and user, of the (page instance, item) pairs whose events all lie in that
    -- one slice: `exposures` such pairs and `duplicates` their further events. A missing value
    -- is the empty blob. Keyed by date first, so that a day's pairs land at the table's end.
    CREATE TABLE exposure_slices (
        local_date    TEXT NOT NULL,
        platform      NOT NULL,
        app_version   NOT NULL,
        page_id       NOT NULL,
        model_info    NOT NULL,
        feed_position NOT NULL,
        item_id       TEXT NOT NULL,
        user_id       TEXT NOT NULL,
        exposures     INTEGER NOT NULL,
        duplicates    INTEGER NOT NULL,
        PRIMARY KEY (local_date, platform, app_version, page_id, model_info, feed_position, item_id, user_id)
    ) WITHOUT ROWID;

    -- The pairs whose events lie in several slices, a row per (pair, slice): the slice's
    -- earliest event (`first_ts`, `first_key`, its user and groups) and how many events it has.
    CREATE TABLE spanning_exposure_slices (
        page_instance_id TEXT NOT NULL,
        item_id          TEXT NOT NULL,
        local_date       TEXT NOT NULL,
        platform         TEXT,
        app_version      TEXT,
        first_ts         INTEGER NOT NULL,
        first_key        TEXT NOT NULL,
        user_id          TEXT NOT NULL,
        page_id          TEXT,
        model_info       TEXT,
        feed_position    INTEGER,
        events           INTEGER NOT NULL
    );
    CREATE INDEX spanning_exposure_slices_pair ON spanning_exposure_slices (page_instance_id, item_id);

    CREATE TEMP TABLE exposure_pair_slices AS
    SELECT *, COUNT(*) OVER (PARTITION BY page_instance_id, item_id) AS slices FROM (
        SELECT page_instance_id, item_id, local_date, platform, app_version, ts_ms, event_id, user_id, page_id, model_info,
               feed_position, ROW_NUMBER() OVER slice AS rank, COUNT(*) OVER slice AS events
        FROM exposure_events
        WINDOW slice AS (PARTITION BY page_instance_id, item_id, local_date, platform, app_version ORDER BY ts_ms, event_id
                         ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
    WHERE rank = 1;
    INSERT INTO exposure_slices
    SELECT local_date, ifnull(platform, X''), ifnull(app_version, X''), ifnull(page_id, X''), ifnull(model_info, X''),
           ifnull(feed_position, X''), item_id, user_id, count(*), sum(events - 1)
    FROM exposure_pair_slices
    WHERE slices = 1
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
    INSERT INTO spanning_exposure_slices
    SELECT page_instance_id, item_id, local_date, platform, app_version, ts_ms, event_id, user_id, page_id, model_info,
           feed_position, events
    FROM exposure_pair_slices
    WHERE slices > 1;
    DROP TABLE temp.exposure_pair_slices;
    """
}
