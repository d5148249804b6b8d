import TallyIngest

extension TallySchema {
    /// Version 10: the rollups of the filtered exposure counts (`ExposureSliceWriter`), so that
    /// `exposures` with `--from/--to/--platform/--app-version` reads the exposures of the kept
    /// local dates, platforms and app versions instead of ranking every exposure event. Existing
    /// stores are filled from their events by `fillExposureSlices`.
    ///
    /// `exposure_firsts` keeps its first event's platform and app version beside its local date,
    /// so that a late event of a stored pair finds the pair's slice without reading the events.
    static let v10 = """
    ALTER TABLE exposure_firsts_settled ADD COLUMN platform TEXT;
    ALTER TABLE exposure_firsts_settled ADD COLUMN app_version TEXT;
    ALTER TABLE exposure_firsts_recent ADD COLUMN platform TEXT;
    ALTER TABLE exposure_firsts_recent ADD COLUMN app_version TEXT;

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
    """

    /// Pairs written in one batch of `fillExposureSlices`; the fill holds that batch, the page
    /// cache, a hash per pair in its first pass and the pairs of several events.
    static let exposureFillBatch = 50_000

    /// Fills the version 10 rollups from the stored exposure events, as the ingest would have, in
    /// two passes over them and with memory for the pairs of several events only: the first
    /// pass finds the hashes of the pairs seen more than once; the second writes every other
    /// pair (one event each) in batches as it goes, and keeps those pairs whole to the end. A
    /// pair of one event whose hash collides with another's is merely kept to the end too.
    /// Each pair's first event also gives its platform and app version to `exposure_firsts`
    /// (an update by the pair's key: the events have no index on their id to join on).
    @Sendable static func fillExposureSlices(_ db: Database) throws {
        let pairs = try db.prepare("SELECT page_instance_id, item_id FROM exposure_events")
        var seen = Set<Int>(), repeated = Set<Int>()
        while try pairs.step() {
            let hash = PageItem(pageInstance: pairs.text(0) ?? "", item: pairs.text(1) ?? "").hashValue
            if !seen.insert(hash).inserted { repeated.insert(hash) }
        }
        seen = []
        let firsts = try FirstSliceFill(db)
        let writer = try ExposureSliceWriter(database: db)
        var batch = RollupBatch(), several = RollupBatch()
        let events = try db.prepare("""
            SELECT page_instance_id, item_id, local_date, platform, app_version, ts_ms, event_id, user_id, page_id,
                   model_info, feed_position
            FROM exposure_events
            """)
        while try events.step() {
            let r = events
            let pair = PageItem(pageInstance: r.text(0) ?? "", item: r.text(1) ?? "")
            let localDate = r.text(2) ?? ""
            let first = FirstExposure(order: OrderKey(timestampMs: r.int64(5), sequence: 0, key: r.text(6) ?? ""),
                                      user: r.text(7) ?? "", localDate: localDate, pageId: r.text(8), modelInfo: r.text(9),
                                      feedPosition: r.isNull(10) ? nil : r.int(10), platform: r.text(3),
                                      appVersion: r.text(4), events: 1)
            let slice = ImpressionSlices.Slice(localDate: localDate, platform: r.text(3), appVersion: r.text(4))
            if repeated.contains(pair.hashValue) {
                several.addExposure(pair, first, at: slice)
                continue
            }
            try firsts.save(pair, first)
            batch.addExposure(pair, first, at: slice)
            if batch.firstExposures.count == exposureFillBatch {
                try writer.write(batch, storedBefore: [:])
                batch = RollupBatch()
            }
        }
        try writer.write(batch, storedBefore: [:])
        try writer.write(several, storedBefore: [:])
        for (pair, first) in several.firstExposures {
            try firsts.save(pair, first)
        }
    }

    /// Writes a pair's first event's platform and app version into the run of `exposure_firsts`
    /// that holds the pair.
    private struct FirstSliceFill {
        let updates: [Statement]

        init(_ db: Database) throws {
            updates = try ["exposure_firsts_settled", "exposure_firsts_recent"].map {
                try db.prepare("UPDATE \($0) SET platform = ?3, app_version = ?4 WHERE page_instance_id = ?1 AND item_id = ?2")
            }
        }

        func save(_ pair: PageItem, _ first: FirstExposure) throws {
            guard first.platform != nil || first.appVersion != nil else { return }
            for update in updates {
                update.bind(pair.pageInstance, at: 1)
                update.bind(pair.item, at: 2)
                update.bind(first.platform, at: 3)
                update.bind(first.appVersion, at: 4)
                try update.run()
            }
        }
    }
}
