import TallyEvents
import TallyIngest

/// The rollup changes of the events accepted since the last commit, merged in memory so that
/// a batch of thousands of events costs a handful of upserts (written by `RollupWriter`).
struct RollupBatch {
    struct UserDateMaterial: Hashable {
        @Bytewise var user: String
        var date: String
        @Bytewise var material: String
    }

    struct DateMaterial: Hashable {
        var date: String
        @Bytewise var material: String
    }

    struct UserMaterial: Hashable {
        @Bytewise var user: String
        @Bytewise var material: String
    }

    struct EventUser: Hashable {
        @Bytewise var eventName: String
        @Bytewise var user: String
    }

    struct EventDay: Hashable {
        @Bytewise var eventName: String
        var date: String
    }

    struct Activity {
        var seconds = 0
        var events = 0
    }

    struct MaterialDelta {
        var activity = Activity()
        var completions = 0
        var last: OrderKey
        var targetType: String
        var title: (order: OrderKey, value: String)?
        var position: (order: OrderKey, json: String, progress: Double?)?
    }

    struct UserDelta {
        var last: OrderKey
        var timezoneOffsetMinutes: Int
    }

    typealias FirstExposure = TallyIngest.FirstExposure

    var daily: [UserDateMaterial: Activity] = [:]
    var dailyAll: [DateMaterial: Activity] = [:]
    var materials: [UserMaterial: MaterialDelta] = [:]
    var users: [Bytewise<String>: UserDelta] = [:]
    var firstExposures: [PageItem: FirstExposure] = [:]
    var eventUsers: [EventUser: Int] = [:]
    /// The (event name, local date) of the observability events.
    var eventDays: Set<EventDay> = []
    var slices = SliceBatch()
    var exposureSlices = ExposureSliceBatch()
    /// `firstExposures` as exposure-count changes when every pair is new (`planExposures()`).
    var exposurePlan: ExposurePlan?

    var isEmpty: Bool {
        daily.isEmpty && materials.isEmpty && users.isEmpty
            && firstExposures.isEmpty && eventUsers.isEmpty && slices.isEmpty
    }

    init() {}

    /// An empty batch sized for the next batch of the same file (`SliceBatch.init(sizedLike:)`).
    init(sizedLike previous: RollupBatch) {
        slices = SliceBatch(sizedLike: previous.slices)
    }

    /// Computes `exposurePlan` from the batch's pairs (on the reading thread, once the batch is whole).
    mutating func planExposures() {
        exposurePlan = ExposurePlan(firstExposures)
    }

    /// Merges in every valid record of `chunk`, each taken as new.
    mutating func add(_ chunk: ValidatedChunk) {
        for entry in chunk.entries {
            if case .success(let event) = entry.result {
                add(event, localDate: entry.localDate)
            }
        }
    }

    /// Merges in one accepted event of any family (`localDate` is its local date).
    mutating func add(_ event: Event, localDate: String) {
        switch event {
        case .reading(let e): add(e, localDate: localDate)
        case .feedback(let e): add(e, localDate: localDate)
        case .exposure(let e): add(e, localDate: localDate)
        case .observability(let e): add(e, localDate: localDate)
        }
    }

    mutating func add(_ event: ReadingEvent, localDate: String) {
        let user = event.common.userId
        let seconds = event.activeSecondsDelta
        daily[UserDateMaterial(user: user, date: localDate, material: event.materialId), default: Activity()]
            .add(seconds: seconds)
        dailyAll[DateMaterial(date: localDate, material: event.materialId), default: Activity()].add(seconds: seconds)

        let order = OrderKey(timestampMs: event.clientTimestampMs, sequence: event.sequence ?? 0, key: event.eventId)
        let key = UserMaterial(user: user, material: event.materialId)
        var delta = materials[key] ?? MaterialDelta(last: order, targetType: event.targetType.rawValue)
        delta.activity.add(seconds: seconds)
        if event.kind == .markedAsRead { delta.completions += 1 }
        if delta.last <= order {
            delta.last = order
            delta.targetType = event.targetType.rawValue
        }
        if let title = event.title, delta.title.map({ $0.order < order }) ?? true {
            delta.title = (order, title)
        }
        if let position = event.positionJSON, delta.position.map({ $0.order < order }) ?? true {
            delta.position = (order, position, event.progress)
        }
        materials[key] = delta

        if users[Bytewise(user)].map({ $0.last < order }) ?? true {
            users[Bytewise(user)] = UserDelta(last: order, timezoneOffsetMinutes: event.common.timezoneOffsetMinutes)
        }
    }

    mutating func add(_ event: ObservabilityEvent, localDate: String) {
        eventUsers[EventUser(eventName: event.eventName, user: event.common.userId), default: 0] += 1
        eventDays.insert(EventDay(eventName: event.eventName, date: localDate))
    }

    mutating func add(_ event: FeedbackEvent, localDate: String) {
        let order = OrderKey(timestampMs: event.timestampMs, sequence: 0, key: event.id)
        slices.addFeedback(user: event.common.userId, impression: event.impressionId,
                           at: Self.sliceKey(event.common, localDate: localDate, modelInfo: event.modelInfo,
                                             feedPosition: event.feedPosition),
                           ImpressionSlices.Reaction(order: order, kind: event.kind.rawValue, reason: event.reason))
    }

    mutating func add(_ event: ExposureEvent, localDate: String) {
        slices.addExposure(user: event.common.userId, impression: event.impressionId,
                           at: Self.sliceKey(event.common, localDate: localDate, modelInfo: event.modelInfo,
                                             feedPosition: event.feedPosition))
        let order = OrderKey(timestampMs: event.clientTimestampMs, sequence: 0, key: event.eventId)
        addExposure(PageItem(pageInstance: event.pageInstanceId, item: event.itemId),
                    FirstExposure(order: order, user: event.common.userId, localDate: localDate, pageId: event.pageId,
                                  modelInfo: event.modelInfo, feedPosition: event.feedPosition,
                                  platform: event.common.platform, appVersion: event.common.appVersion, events: 1),
                    at: ImpressionSlices.Slice(localDate: localDate, platform: event.common.platform,
                                               appVersion: event.common.appVersion))
    }

    /// Merges in one exposure event of `pair` (`event`, with `events` 1) in `slice`: the pair's
    /// first exposure and its slices.
    mutating func addExposure(_ pair: PageItem, _ event: FirstExposure, at slice: ImpressionSlices.Slice) {
        var incoming = event
        incoming.events = 0
        var outside: FirstExposure?
        Self.merge(incoming, into: &firstExposures[pair, default: incoming], at: slice, outside: &outside)
        if outside != nil || !exposureSlices.isEmpty {
            exposureSlices.add(pair, at: slice, event, outside: outside)
        }
    }

    /// The feed filters' slice of an event and its group.
    private static func sliceKey(_ common: EventCommon, localDate: String, modelInfo: String?,
                                 feedPosition: Int?) -> ImpressionSlices.Key {
        ImpressionSlices.Key(slice: ImpressionSlices.Slice(localDate: localDate, platform: common.platform,
                                                           appVersion: common.appVersion),
                             modelInfo: modelInfo, feedPosition: feedPosition)
    }

    /// Counts one more event of a pair at `slice`, which becomes its first when it is earlier
    /// (one hash lookup per event: the pair is updated in place); `outside` is set to the pair
    /// as it was when its earlier events lie in another slice.
    private static func merge(_ incoming: FirstExposure, into first: inout FirstExposure, at slice: ImpressionSlices.Slice,
                              outside: inout FirstExposure?) {
        if first.events > 0, !first.lies(in: slice) {
            outside = first
        }
        let events = first.events + 1
        if incoming.order < first.order {
            first = incoming
        }
        first.events = events
    }
}

extension RollupBatch.Activity {
    mutating func add(seconds: Int) {
        self.seconds += seconds
        events += 1
    }
}
