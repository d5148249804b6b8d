import TallyIngest

/// Writes a `RollupBatch` into the rollup tables with upserts that merge it into what is stored:
/// sums add up, "newest" fields move only for a later ordering key; the feed's rollups are
/// written by `FeedRollupWriter`, `ExposureRollupWriter`, `ExposureSliceWriter` and `ImpressionSliceWriter`.
final class RollupWriter {
    private let daily: Statement
    private let dailyAll: Statement
    private let material: Statement
    private let user: Statement
    private let eventUsers: Statement
    private let eventDays: Statement
    private let feed: FeedRollupWriter
    private let exposures: ExposureRollupWriter
    private let exposureSlices: ExposureSliceWriter
    private let slices: ImpressionSliceWriter
    /// The runs of the feed's state keyed by random ids (`StateRuns`).
    let stateRuns: [StateRuns]

    /// SQL: the incoming `<prefix>_ts, _seq, _key` order after the stored ones.
    private static func newer(_ prefix: String) -> String {
        "(excluded.\(prefix)_ts, excluded.\(prefix)_seq, excluded.\(prefix)_key) > (\(prefix)_ts, \(prefix)_seq, \(prefix)_key)"
    }

    init(database db: Database) throws {
        daily = try db.prepare("""
            INSERT INTO reading_daily (user_id, local_date, material_id, active_seconds, events) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (user_id, local_date, material_id) DO UPDATE SET
                active_seconds = active_seconds + excluded.active_seconds, events = events + excluded.events
            """)
        dailyAll = try db.prepare("""
            INSERT INTO reading_daily_all (local_date, material_id, active_seconds, events) VALUES (?, ?, ?, ?)
            ON CONFLICT (local_date, material_id) DO UPDATE SET
                active_seconds = active_seconds + excluded.active_seconds, events = events + excluded.events
            """)
        let lastNewer = Self.newer("last")
        let titleNewer = "excluded.title IS NOT NULL AND (title IS NULL OR \(Self.newer("title")))"
        let positionNewer = "excluded.position IS NOT NULL AND (position IS NULL OR \(Self.newer("position")))"
        material = try db.prepare("""
            INSERT INTO material_state (user_id, material_id, events, active_seconds, completions,
                last_ts, last_seq, last_key, target_type, title, title_ts, title_seq, title_key,
                position, progress, position_ts, position_seq, position_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, material_id) DO UPDATE SET
                events = events + excluded.events,
                active_seconds = active_seconds + excluded.active_seconds,
                completions = completions + excluded.completions,
                last_ts = CASE WHEN \(lastNewer) THEN excluded.last_ts ELSE last_ts END,
                last_seq = CASE WHEN \(lastNewer) THEN excluded.last_seq ELSE last_seq END,
                last_key = CASE WHEN \(lastNewer) THEN excluded.last_key ELSE last_key END,
                target_type = CASE WHEN \(lastNewer) THEN excluded.target_type ELSE target_type END,
                title = CASE WHEN \(titleNewer) THEN excluded.title ELSE title END,
                title_ts = CASE WHEN \(titleNewer) THEN excluded.title_ts ELSE title_ts END,
                title_seq = CASE WHEN \(titleNewer) THEN excluded.title_seq ELSE title_seq END,
                title_key = CASE WHEN \(titleNewer) THEN excluded.title_key ELSE title_key END,
                position = CASE WHEN \(positionNewer) THEN excluded.position ELSE position END,
                progress = CASE WHEN \(positionNewer) THEN excluded.progress ELSE progress END,
                position_ts = CASE WHEN \(positionNewer) THEN excluded.position_ts ELSE position_ts END,
                position_seq = CASE WHEN \(positionNewer) THEN excluded.position_seq ELSE position_seq END,
                position_key = CASE WHEN \(positionNewer) THEN excluded.position_key ELSE position_key END
            """)
        user = try db.prepare("""
            INSERT INTO reading_user_state (user_id, last_ts, last_seq, last_key, tz_minutes) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET
                last_ts = excluded.last_ts, last_seq = excluded.last_seq, last_key = excluded.last_key,
                tz_minutes = excluded.tz_minutes
            WHERE \(lastNewer)
            """)
        eventUsers = try db.prepare("""
            INSERT INTO event_user_counts (event_name, user_id, count) VALUES (?, ?, ?)
            ON CONFLICT (event_name, user_id) DO UPDATE SET count = count + excluded.count
            """)
        eventDays = try db.prepare("INSERT OR IGNORE INTO event_name_days (event_name, local_date) VALUES (?, ?)")
        let pairs = try StateRuns(database: db, family: StateRuns.exposurePairs)
        let impressions = try StateRuns(database: db, family: StateRuns.impressions)
        stateRuns = [pairs, impressions]
        feed = try FeedRollupWriter(database: db)
        exposures = try ExposureRollupWriter(database: db, runs: pairs)
        exposureSlices = try ExposureSliceWriter(database: db)
        slices = try ImpressionSliceWriter(database: db, runs: impressions)
    }

    func write(_ batch: RollupBatch) throws {
        for runs in stateRuns {
            try runs.refresh()
        }
        for (key, activity) in batch.daily {
            try daily.bind([.text(key.user), .text(key.date), .text(key.material),
                            .int(Int64(activity.seconds)), .int(Int64(activity.events))])
            try daily.run()
        }
        for (key, activity) in batch.dailyAll {
            try dailyAll.bind([.text(key.date), .text(key.material), .int(Int64(activity.seconds)), .int(Int64(activity.events))])
            try dailyAll.run()
        }
        for (key, delta) in batch.materials {
            try material.bind([
                .text(key.user), .text(key.material), .int(Int64(delta.activity.events)),
                .int(Int64(delta.activity.seconds)), .int(Int64(delta.completions)),
            ] + Self.values(delta.last) + [.text(delta.targetType), delta.title.map { .text($0.value) } ?? .null]
              + Self.values(delta.title?.order) + [
                delta.position.map { .text($0.json) } ?? .null,
                delta.position?.progress.map { .double($0) } ?? .null,
            ] + Self.values(delta.position?.order))
            try material.run()
        }
        for (key, delta) in batch.users {
            try user.bind([.text(key.wrappedValue)] + Self.values(delta.last) + [.int(Int64(delta.timezoneOffsetMinutes))])
            try user.run()
        }
        for (key, count) in batch.eventUsers {
            try eventUsers.bind([.text(key.eventName), .text(key.user), .int(Int64(count))])
            try eventUsers.run()
        }
        for key in batch.eventDays {
            try eventDays.bind([.text(key.eventName), .text(key.date)])
            try eventDays.run()
        }
        try feed.write(try slices.write(batch.slices))
        try exposureSlices.write(batch, storedBefore: try exposures.write(batch))
    }

    /// Passes over the stored exposure pairs made for pairs that moved to another group.
    var passesOverExposurePairs: Int { exposures.passesOverPairs }

    /// The least bound of the recent run of a family of the feed's state (`StateRuns.settleAt`).
    var stateSettleAt: Int {
        get { stateRuns[0].settleAt }
        set { stateRuns.forEach { $0.settleAt = newValue } }
    }

    /// Forgets what the writers remember of stored rows (the transaction was rolled back).
    func forget() {
        exposures.forget()
        for runs in stateRuns {
            runs.forget()
        }
    }

    private static func values(_ order: OrderKey?) -> [SQLValue] {
        guard let order else { return [.null, .null, .null] }
        return [.int(order.timestampMs), .int(order.sequence), .text(order.key)]
    }
}
