import TallyEvents
import TallyIngest

/// One batch of the ClickHouse ingest, prepared while the batch before it is sent: each
/// family's rows already written as `RowBinary`, the batch's keys to look up (each once: a key
/// met again in the batch is a duplicate and never reaches it), what each feedback and exposure
/// event tells of its impression (`ImpressionStates`), what each exposure event tells of its
/// (page instance, item) (`ExposurePairs`) and the rejected lines.
struct ClickHouseBatch: Sendable {
    /// An event of the batch: its key, and where its row is.
    struct Entry: Sendable {
        var family: EventFamily
        var key: String
        var row: Range<Int>
    }

    /// The events, in arrival order.
    private(set) var entries: [Entry] = []
    /// Each family's rows, indexed as `EventFamily.allCases`.
    private(set) var rows = [RowBinaryWriter](repeating: RowBinaryWriter(), count: EventFamily.allCases.count)
    /// A (place in `entries`, family, key, user) `RowBinary` row per entry, as the lookup of stored
    /// keys reads them (`ClickHouseBatchSender.keyStructure`).
    private(set) var keyRows = RowBinaryWriter()
    /// The share of an impression's state each feedback event, and each exposure event with an
    /// impression, brings: the entry's index, the (user, impression) and the share.
    private(set) var impressions: [(entry: Int, key: ImpressionStates.Key, share: ImpressionState)] = []
    /// The share of a (page instance, item) each exposure event brings: the entry's index, the
    /// pair and the event as its first.
    private(set) var pairs: [(entry: Int, key: ExposurePairs.Key, share: ExposurePairs.First)] = []
    /// `rejected_lines` rows.
    var rejectedRows = RowBinaryWriter()
    /// Each family's keys, indexed as `EventFamily.allCases`.
    private var keys = [Set<Bytewise<String>>](repeating: [], count: EventFamily.allCases.count)
    private var dateCache: (day: Int, text: String) = (Int.min, "")

    /// An empty batch.
    init() {}

    /// An empty batch with room for as much as `other` holds, so that the next batch of an
    /// ingest grows no buffer and rehashes no key set.
    init(roomFor other: ClickHouseBatch) {
        entries.reserveCapacity(other.entries.count)
        impressions.reserveCapacity(other.impressions.count)
        pairs.reserveCapacity(other.pairs.count)
        rows = other.rows.map { RowBinaryWriter(reserving: $0.count) }
        keyRows = RowBinaryWriter(reserving: other.keyRows.count)
        keys = other.keys.map { Set(minimumCapacity: $0.count) }
    }

    /// How many events are queued.
    var count: Int { entries.count }

    /// Queues `event`; false when its key is already in the batch.
    mutating func add(_ event: Event) -> Bool {
        switch event {
        case .reading(let e):
            return append(.reading, key: e.eventId, common: e.common, timestampMs: e.clientTimestampMs) {
                e.writeClickHouseRow(localDate: $0, to: &$1)
            }
        case .observability(let e):
            return append(.observability, key: e.eventId, common: e.common, timestampMs: e.timestampMs) {
                e.writeClickHouseRow(localDate: $0, to: &$1)
            }
        case .feedback(let e):
            guard append(.feedback, key: e.id, common: e.common, timestampMs: e.timestampMs, row: {
                e.writeClickHouseRow(localDate: $0, to: &$1)
            }) else { return false }
            var share = ImpressionState()
            share.reaction = ImpressionState.Reaction(
                order: OrderKey(timestampMs: e.timestampMs, sequence: 0, key: e.id), kind: e.kind.rawValue,
                reason: e.reason, group: FineGroup(modelInfo: e.modelInfo, feedPosition: e.feedPosition))
            impressions.append((entries.count - 1, ImpressionStates.Key(user: e.common.userId, impression: e.impressionId), share))
        case .exposure(let e):
            guard append(.exposure, key: e.eventId, common: e.common, timestampMs: e.clientTimestampMs, row: {
                e.writeClickHouseRow(localDate: $0, to: &$1)
            }) else { return false }
            pairs.append((entries.count - 1, ExposurePairs.Key(pageInstance: e.pageInstanceId, item: e.itemId),
                          ExposurePairs.First(order: OrderKey(timestampMs: e.clientTimestampMs, sequence: 0, key: e.eventId),
                                              user: e.common.userId, localDate: dateCache.text, pageId: e.pageId,
                                              modelInfo: e.modelInfo, feedPosition: e.feedPosition, events: 1)))
            guard let impression = e.impressionId else { break }
            var share = ImpressionState()
            share.exposureGroups.insert(FineGroup(modelInfo: e.modelInfo, feedPosition: e.feedPosition))
            impressions.append((entries.count - 1, ImpressionStates.Key(user: e.common.userId, impression: impression), share))
        }
        return true
    }

    /// Queues an event of `family` unless its key is already in the batch: its row (written by
    /// `row` from the local date's text), its key row and its entry.
    private mutating func append(_ family: EventFamily, key: String, common: EventCommon, timestampMs: Int64,
                                 row: (String, inout RowBinaryWriter) -> Void) -> Bool {
        let index = family.index
        guard keys[index].insert(Bytewise(key)).inserted else { return false }
        let date = LocalDate(instantMs: timestampMs, offsetMinutes: common.timezoneOffsetMinutes)
        if date.dayNumber != dateCache.day { dateCache = (date.dayNumber, date.description) }
        let start = rows[index].count
        row(dateCache.text, &rows[index])
        keyRows.uint32(entries.count)
        keyRows.string(family.rawValue)
        keyRows.string(key)
        keyRows.string(common.userId)
        entries.append(Entry(family: family, key: key, row: start..<rows[index].count))
        return true
    }
}

extension EventFamily {
    /// The family's place in `allCases`.
    var index: Int {
        switch self {
        case .reading: 0
        case .feedback: 1
        case .exposure: 2
        case .observability: 3
        }
    }
}
