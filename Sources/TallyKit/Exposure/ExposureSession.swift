import TallyEvents

/// The exposure rules for one page, as pure state: fed layouts, page transitions and instants,
/// it answers with the exposure events due. ``ExposureTracker`` wraps it with a clock, a lock
/// and a sink.
///
/// Between two inputs the last layout is taken to hold: an item is visible from the input that
/// first shows it qualifying until the input that stops showing it. Each input first settles
/// the stretch that just ended (an item whose run reached ``ExposureTracker/minimumDwellMs`` is
/// exposed even if the input itself hides it), then applies the change.
struct ExposureSession {
    private let pageId: String?
    private let common: EventCommon
    private var random: any RandomNumberGenerator
    private(set) var pageInstanceId: String
    private var hiding: Set<PageHiding> = [.notShown]
    private var backgroundSinceMs: Int64?
    private var layout: ExposureLayout?
    private var runs: [String: VisibleRun] = [:]
    private(set) var exposed: Set<String> = []

    /// A page not yet shown, its first instance starting at `nowMs`.
    init(pageId: String?, common: EventCommon, random: any RandomNumberGenerator, nowMs: Int64) {
        self.pageId = pageId
        self.common = common
        self.random = random
        pageInstanceId = UUIDv7.make(ms: nowMs, using: &self.random)
    }

    /// The page now lays out as `newLayout`.
    mutating func update(_ newLayout: ExposureLayout, nowMs: Int64) -> [ExposureEvent] {
        let due = settle(nowMs: nowMs)
        layout = newLayout
        restartRuns(nowMs: nowMs)
        return due
    }

    /// Time passed with nothing else changing.
    mutating func tick(nowMs: Int64) -> [ExposureEvent] {
        settle(nowMs: nowMs)
    }

    /// `transition` happened to the page.
    mutating func handle(_ transition: PageTransition, nowMs: Int64) -> [ExposureEvent] {
        let due = settle(nowMs: nowMs)
        switch transition {
        case .appeared: hiding.remove(.notShown)
        case .disappeared: hiding.insert(.notShown)
        case .childPagePushed: hiding.insert(.childPage)
        case .childPagePopped: hiding.remove(.childPage)
        case .bottomTabLeft: hiding.insert(.otherBottomTab)
        case .bottomTabReturned:
            hiding.remove(.otherBottomTab)
            rearm(nowMs: nowMs)
        case .topTabSwitched, .refreshed, .paged: break
        case .enteredBackground:
            hiding.insert(.background)
            backgroundSinceMs = backgroundSinceMs ?? nowMs
        case .enteredForeground:
            hiding.remove(.background)
            if let since = backgroundSinceMs, nowMs - since > ExposureTracker.backgroundRearmAfterMs {
                rearm(nowMs: nowMs)
            }
            backgroundSinceMs = nil
        }
        restartRuns(nowMs: nowMs)
        return due
    }

    /// Exposes every item whose run, held until `nowMs`, reached the dwell threshold; in order of
    /// the instant each crossed it, then by item id.
    private mutating func settle(nowMs: Int64) -> [ExposureEvent] {
        let due = runs.filter { nowMs - $0.value.sinceMs >= ExposureTracker.minimumDwellMs }
            .sorted { ($0.value.sinceMs, $0.key) < ($1.value.sinceMs, $1.key) }
        var events: [ExposureEvent] = []
        for (itemId, run) in due {
            runs[itemId] = nil
            exposed.insert(itemId)
            let reachedMs = run.sinceMs + ExposureTracker.minimumDwellMs
            events.append(ExposureEvent(
                eventId: UUIDv7.make(ms: reachedMs, using: &random), clientTimestampMs: reachedMs, pageId: pageId,
                pageInstanceId: pageInstanceId, itemId: itemId, impressionId: run.context?.impressionId,
                modelInfo: run.context?.modelInfo, feedPosition: run.context?.feedPosition,
                visibleRatio: run.minimumShare, dwellMs: nowMs - run.sinceMs, common: common))
        }
        return events
    }

    /// Starts runs for items that now qualify and ends those of items that no longer do.
    private mutating func restartRuns(nowMs: Int64) {
        guard hiding.isEmpty, let layout else {
            runs.removeAll()
            return
        }
        var shares: [String: (share: Double, context: ExposureContext?)] = [:]
        for item in layout.items where !exposed.contains(item.itemId) {
            let area = item.frame.area
            let visible = layout.visibleArea(of: item)
            // At least two thirds, compared without dividing so that exactly 2/3 qualifies.
            guard area > 0, visible * 3 >= area * 2 else { continue }
            let share = min(1, visible / area)
            if let best = shares[item.itemId], best.share >= share { continue }
            shares[item.itemId] = (share, item.context)
        }
        var next: [String: VisibleRun] = [:]
        next.reserveCapacity(shares.count)
        for (itemId, seen) in shares {
            if var run = runs[itemId] {
                run.minimumShare = min(run.minimumShare, seen.share)
                run.context = seen.context
                next[itemId] = run
            } else {
                next[itemId] = VisibleRun(sinceMs: nowMs, minimumShare: seen.share, context: seen.context)
            }
        }
        runs = next
    }

    /// Starts a new page instance in which every item may be exposed again.
    private mutating func rearm(nowMs: Int64) {
        pageInstanceId = UUIDv7.make(ms: nowMs, using: &random)
        exposed.removeAll()
        runs.removeAll()
    }
}
