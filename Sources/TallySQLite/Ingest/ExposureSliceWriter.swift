import TallyIngest

/// Keeps the filtered exposure counts' rollups current (`TallySchema.v10`). A (page instance,
/// item) pair whose events all lie in one slice (local date, platform, app version), nearly
/// every one, is kept or left out whole by any feed filter: it adds one exposure and its further
/// events as duplicates to the `exposure_slices` row of its slice and its first event's page,
/// model, position, item and user. A pair with events in several slices is kept per slice in
/// `spanning_exposure_slices`, for the report to combine as it combines events.
///
/// A new pair costs one upsert, at the table's end when its day is recent. A pair the
/// batch found stored (`ExposureRollupWriter` says which, with what was stored: a late event of
/// the pair) is read back: its rows in `spanning_exposure_slices`, else its one slice, that of
/// its stored first event (kept in `exposure_firsts` with the pair); its share is taken back and
/// the merged pair's added. No statement reads the exposure events.
final class ExposureSliceWriter {
    private let addCell: Statement
    private let dropEmptyCell: Statement
    private let readSpanning: Statement
    private let deleteSpanning: Statement
    private let insertSpanning: Statement

    init(database db: Database) throws {
        let cellKey = "local_date, platform, app_version, page_id, model_info, feed_position, item_id, user_id"
        addCell = try db.prepare("""
            INSERT INTO exposure_slices (\(cellKey), exposures, duplicates) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (\(cellKey)) DO UPDATE SET
                exposures = exposures + excluded.exposures, duplicates = duplicates + excluded.duplicates
            """)
        dropEmptyCell = try db.prepare("""
            DELETE FROM exposure_slices WHERE local_date = ? AND platform = ? AND app_version = ? AND page_id = ?
                AND model_info = ? AND feed_position = ? AND item_id = ? AND user_id = ? AND exposures = 0
            """)
        let spanningColumns = """
            local_date, platform, app_version, first_ts, first_key, user_id, page_id, model_info, feed_position, events
            """
        readSpanning = try db.prepare("""
            SELECT \(spanningColumns) FROM spanning_exposure_slices WHERE page_instance_id = ? AND item_id = ?
            """)
        deleteSpanning = try db.prepare("DELETE FROM spanning_exposure_slices WHERE page_instance_id = ? AND item_id = ?")
        insertSpanning = try db.prepare("""
            INSERT INTO spanning_exposure_slices (page_instance_id, item_id, \(spanningColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// Writes the batch's pairs; `storedBefore` holds those it found stored, as they were before it.
    func write(_ batch: RollupBatch, storedBefore: [PageItem: FirstExposure]) throws {
        for (pair, first) in batch.firstExposures {
            let spread = batch.exposureSlices.spread(of: pair)
            if spread == nil, storedBefore.isEmpty || storedBefore[pair] == nil {
                try count(first, item: pair.item, at: first.slice, 1)
                continue
            }
            let incoming = spread ?? [first.slice: first]
            guard let before = storedBefore[pair] else {
                try add(pair, incoming)
                continue
            }
            var stored = try spanning(pair)
            if stored.isEmpty {
                let slice = before.slice
                try count(before, item: pair.item, at: slice, -1)
                stored = [slice: before]
            } else {
                bind(pair, to: deleteSpanning)
                try deleteSpanning.run()
            }
            stored.merge(incoming) { $0.merging($1) }
            try add(pair, stored)
        }
    }

    /// Adds (`sign` 1) or takes back (-1) a pair of one slice, `first` its first event and
    /// count, in its row of `exposure_slices`, which goes when it holds no pair any more.
    private func count(_ first: FirstExposure, item: String, at slice: ImpressionSlices.Slice, _ sign: Int64) throws {
        try bind(first, item: item, at: slice, to: addCell)
        addCell.bind(sign, at: 9)
        addCell.bind(sign * Int64(first.events - 1), at: 10)
        try addCell.run()
        if sign < 0 {
            try bind(first, item: item, at: slice, to: dropEmptyCell)
            try dropEmptyCell.run()
        }
    }

    /// Counts a pair in its row of `exposure_slices` when it has one slice, else stores its rows
    /// of `spanning_exposure_slices`.
    private func add(_ pair: PageItem, _ bySlice: [ImpressionSlices.Slice: FirstExposure]) throws {
        guard bySlice.count > 1 else {
            if let only = bySlice.first {
                try count(only.value, item: pair.item, at: only.key, 1)
            }
            return
        }
        for (slice, first) in bySlice {
            bind(pair, to: insertSpanning)
            insertSpanning.bind(slice.localDate, at: 3)
            insertSpanning.bind(slice.platform, at: 4)
            insertSpanning.bind(slice.appVersion, at: 5)
            insertSpanning.bind(first.order.timestampMs, at: 6)
            insertSpanning.bind(first.order.key, at: 7)
            insertSpanning.bind(first.user, at: 8)
            insertSpanning.bind(first.pageId, at: 9)
            insertSpanning.bind(first.modelInfo, at: 10)
            insertSpanning.bind(first.feedPosition.map(Int64.init), at: 11)
            insertSpanning.bind(Int64(first.events), at: 12)
            try insertSpanning.run()
        }
    }

    /// What `spanning_exposure_slices` holds of `pair`, per slice (empty when it holds nothing).
    private func spanning(_ pair: PageItem) throws -> [ImpressionSlices.Slice: FirstExposure] {
        var bySlice: [ImpressionSlices.Slice: FirstExposure] = [:]
        bind(pair, to: readSpanning)
        defer { readSpanning.reset() }
        while try readSpanning.step() {
            let r = readSpanning
            let slice = ImpressionSlices.Slice(localDate: r.text(0) ?? "", platform: r.text(1), appVersion: r.text(2))
            bySlice[slice] = FirstExposure(order: OrderKey(timestampMs: r.int64(3), sequence: 0, key: r.text(4) ?? ""),
                                           user: r.text(5) ?? "", localDate: slice.localDate, pageId: r.text(6),
                                           modelInfo: r.text(7), feedPosition: r.isNull(8) ? nil : r.int(8),
                                           platform: slice.platform, appVersion: slice.appVersion, events: r.int(9))
        }
        return bySlice
    }

    /// Binds a pair (page instance, item) to parameters 1 and 2.
    private func bind(_ pair: PageItem, to statement: Statement) {
        statement.bind(pair.pageInstance, at: 1)
        statement.bind(pair.item, at: 2)
    }

    /// Binds the key of a pair's row of `exposure_slices` (its slice and its first event's page,
    /// model, position, item and user) to parameters 1 to 8, a missing value as the empty blob.
    private func bind(_ first: FirstExposure, item: String, at slice: ImpressionSlices.Slice, to statement: Statement) throws {
        let pair = PairState(first: first, item: item)
        statement.bind(slice.localDate, at: 1)
        try statement.bind(slice.platform.map { .text($0) } ?? .emptyBlob, at: 2)
        try statement.bind(slice.appVersion.map { .text($0) } ?? .emptyBlob, at: 3)
        try statement.bind(pair.value(.page), at: 4)
        try statement.bind(pair.value(.model), at: 5)
        try statement.bind(pair.value(.position), at: 6)
        statement.bind(item, at: 7)
        statement.bind(first.user, at: 8)
    }
}
