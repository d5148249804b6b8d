import TallyEvents
import TallyKit
import Testing

struct ExposureTrackerTests {
    /// (what is checked, the item's frame, its clipping ancestors, the occluders, whether it is exposed)
    typealias VisibilityCase = (String, Rect, [Rect], [Rect], Bool)

    @Test(arguments: [
        ("fully visible", Rect(x: 0, y: 0, width: 400, height: 300), [], [], true),
        ("exactly 2/3 inside the window", Rect(x: 0, y: 600, width: 400, height: 300), [], [], true),
        ("just under 2/3 inside the window", Rect(x: 0, y: 600.5, width: 400, height: 300), [], [], false),
        ("2/3 inside the window sideways", Rect(x: -100, y: 0, width: 300, height: 300), [], [], true),
        ("exactly 2/3 inside an ancestor", Rect(x: 0, y: 0, width: 400, height: 300),
         [Rect(x: 0, y: 100, width: 400, height: 700)], [], true),
        ("under 2/3 inside an ancestor", Rect(x: 0, y: 0, width: 400, height: 300),
         [Rect(x: 0, y: 101, width: 400, height: 700)], [], false),
        ("two ancestors clipping different sides to exactly 2/3", Rect(x: 0, y: 0, width: 300, height: 300),
         [Rect(x: 0, y: 50, width: 400, height: 800), Rect(x: 0, y: 0, width: 240, height: 800)], [], true),
        ("two ancestors clipping different sides past 1/3", Rect(x: 0, y: 0, width: 300, height: 300),
         [Rect(x: 0, y: 50, width: 400, height: 800), Rect(x: 0, y: 0, width: 239, height: 800)], [], false),
        ("nested ancestors, the inner one larger", Rect(x: 0, y: 0, width: 300, height: 300),
         [Rect(x: 0, y: 100, width: 400, height: 800), Rect(x: 0, y: 0, width: 400, height: 800)], [], true),
        ("an occluder over exactly 1/3", Rect(x: 0, y: 0, width: 300, height: 300), [],
         [Rect(x: 0, y: 0, width: 300, height: 100)], true),
        ("an occluder over more than 1/3", Rect(x: 0, y: 0, width: 300, height: 300), [],
         [Rect(x: 0, y: 0, width: 300, height: 101)], false),
        ("overlapping occluders whose union is 1/3", Rect(x: 0, y: 0, width: 300, height: 300), [],
         [Rect(x: 0, y: 0, width: 300, height: 80), Rect(x: 0, y: 20, width: 300, height: 80)], true),
        ("disjoint occluders adding up past 1/3", Rect(x: 0, y: 0, width: 300, height: 300), [],
         [Rect(x: 0, y: 0, width: 300, height: 60), Rect(x: 0, y: 240, width: 300, height: 60)], false),
        ("an occluder over the part already off screen", Rect(x: 0, y: -100, width: 400, height: 300), [],
         [Rect(x: 0, y: -100, width: 400, height: 100)], true),
        ("an occluder over the part already clipped", Rect(x: 0, y: 0, width: 400, height: 300),
         [Rect(x: 0, y: 100, width: 400, height: 700)], [Rect(x: 0, y: 0, width: 400, height: 100)], true),
        ("clipped and occluded together to exactly 2/3", Rect(x: 0, y: 0, width: 400, height: 300),
         [Rect(x: 0, y: 90, width: 400, height: 710)], [Rect(x: 0, y: 250, width: 400, height: 10)], true),
        ("clipped and occluded together past 1/3", Rect(x: 0, y: 0, width: 400, height: 300),
         [Rect(x: 0, y: 90, width: 400, height: 710)], [Rect(x: 0, y: 250, width: 400, height: 11)], false),
        ("an empty frame", Rect(x: 0, y: 0, width: 400, height: 0), [], [], false),
    ] as [VisibilityCase])
    func visibleAtLeastTwoThirds(_ row: VisibilityCase) {
        let page = ExposureFixture()
        page.tracker.update(ExposureLayout(window: ExposureFixture.window,
                                           items: [ExposureItem(itemId: "a", frame: row.1, clips: row.2)],
                                           occluders: row.3))
        page.at(1_500)
        page.tracker.tick()
        #expect(page.exposures.count == (row.4 ? 1 : 0), "\(row.0)")
    }

    enum Step: Sendable {
        /// The item is laid out fully visible.
        case show
        /// The item is scrolled out.
        case hide
        /// Time passes with nothing else happening.
        case tick
    }

    /// (what is checked, steps at milliseconds after the start, the exposures' (threshold instant, dwellMs))
    typealias DwellCase = (String, [(Int64, Step)], [(Int64, Int64)])

    @Test(arguments: [
        ("not before 1.5 s", [(0, .show), (1_499, .tick)], []),
        ("at exactly 1.5 s", [(0, .show), (1_500, .tick)], [(1_500, 1_500)]),
        ("at the first input after 1.5 s, dwell counted to it", [(0, .show), (4_000, .tick)], [(1_500, 4_000)]),
        ("scrolling out after 1.5 s still counts the run", [(0, .show), (1_600, .hide)], [(1_500, 1_600)]),
        ("scrolling out before 1.5 s breaks the run", [(0, .show), (1_000, .hide), (1_200, .show), (2_600, .tick)], []),
        ("a broken run starts over", [(0, .show), (1_000, .hide), (1_200, .show), (2_700, .tick)], [(2_700, 1_500)]),
        ("layouts that keep it visible do not break the run", [(0, .show), (500, .show), (1_000, .show), (1_500, .tick)],
         [(1_500, 1_500)]),
        ("ticks while hidden do not count", [(0, .hide), (5_000, .tick), (5_000, .show), (6_499, .tick)], []),
    ] as [DwellCase])
    func visibleForAtLeastOnePointFiveSecondsWithoutABreak(_ row: DwellCase) {
        let page = ExposureFixture()
        for (ms, step) in row.1 {
            page.at(ms)
            switch step {
            case .show: page.show(["a"])
            case .hide: page.show([])
            case .tick: page.tracker.tick()
            }
        }
        let expected = row.2.map { (1_763_700_000_000 + $0.0, $0.1) }
        let got = page.exposures.map { ($0.clientTimestampMs, $0.dwellMs ?? -1) }
        #expect(got.elementsEqual(expected, by: ==), "\(row.0)")
    }

    /// (what happens between two showings of an exposed item, as transitions or waits in ms;
    /// whether the item is exposed again)
    typealias RearmCase = (String, [PageTransitionStep], Bool)

    enum PageTransitionStep: Sendable {
        case transition(PageTransition)
        case wait(Int64)
    }

    @Test(arguments: [
        ("scrolling out and back", [], false),
        ("a bottom tab switch", [.transition(.bottomTabLeft), .wait(3_000), .transition(.bottomTabReturned)], true),
        ("more than 30 s in the background",
         [.transition(.enteredBackground), .wait(30_001), .transition(.enteredForeground)], true),
        ("exactly 30 s in the background",
         [.transition(.enteredBackground), .wait(30_000), .transition(.enteredForeground)], false),
        ("a short stay in the background",
         [.transition(.enteredBackground), .wait(5_000), .transition(.enteredForeground)], false),
        ("a top tab switch", [.transition(.topTabSwitched), .wait(3_000), .transition(.topTabSwitched)], false),
        ("pull-to-refresh", [.transition(.refreshed)], false),
        ("paging", [.transition(.paged), .wait(2_000), .transition(.paged)], false),
        ("returning from a child page",
         [.transition(.childPagePushed), .wait(60_000), .transition(.childPagePopped)], false),
        ("a modal over the page", [.transition(.disappeared), .wait(60_000), .transition(.appeared)], false),
        ("more than 30 s in the background under a child page",
         [.transition(.childPagePushed), .transition(.enteredBackground), .wait(31_000),
          .transition(.enteredForeground), .transition(.childPagePopped)], true),
    ] as [RearmCase])
    func exposedOncePerPageInstanceUntilReArmed(_ row: RearmCase) {
        let page = ExposureFixture()
        page.show(["a", "b"])
        page.at(2_000)
        page.show(["b"])
        for step in row.1 {
            switch step {
            case .transition(let transition): page.tracker.handle(transition)
            case .wait(let ms): page.at(page.elapsedMs + ms)
            }
        }
        page.show(["a", "b"])
        page.at(page.elapsedMs + 2_000)
        page.tracker.tick()
        let exposedA = page.exposures.filter { $0.itemId == "a" }
        #expect(exposedA.count == (row.2 ? 2 : 1), "\(row.0)")
        #expect(Set(exposedA.map(\.pageInstanceId)).count == exposedA.count, "\(row.0): one instance per exposure")
        #expect(page.tracker.pageInstanceId == exposedA.last?.pageInstanceId)
        #expect(page.exposures.filter { $0.itemId == "b" }.count == (row.2 ? 2 : 1), "\(row.0)")
    }

    @Test(arguments: [
        PageTransition.childPagePushed, .bottomTabLeft, .enteredBackground, .disappeared,
    ])
    func hiddenTimeDoesNotCount(_ hide: PageTransition) {
        let page = ExposureFixture()
        page.show(["a"])
        page.at(1_000)
        page.tracker.handle(hide)
        page.at(20_000)
        page.tracker.tick()
        #expect(page.exposures.isEmpty)
    }

    @Test func nothingCountsBeforeThePageAppears() {
        let page = ExposureFixture(appeared: false)
        page.show(["a"])
        page.at(5_000)
        page.tracker.tick()
        #expect(page.exposures.isEmpty)
        page.tracker.handle(.appeared)
        page.at(6_500)
        page.tracker.tick()
        #expect(page.exposures.map(\.dwellMs) == [1_500])
    }

    @Test func aRefreshThatMovesItemsKeepsThemExposedAndTheirRunsGoing() {
        let page = ExposureFixture()
        page.show(["a", "b"])
        page.at(2_000)
        page.show(["a", "b", "c"])
        page.at(3_000)
        page.tracker.handle(.refreshed)
        page.show(["x", "c", "b", "a"])
        page.at(3_500)
        page.tracker.tick()
        #expect(page.exposures.map(\.itemId) == ["a", "b", "c"])
        page.at(4_500)
        page.tracker.tick()
        #expect(page.exposures.map(\.itemId) == ["a", "b", "c", "x"])
    }

    @Test func eventsCarryThePageTheItemAndItsRecommendation() throws {
        let page = ExposureFixture(pageId: "channel", userId: "u-7")
        let context = ExposureContext(impressionId: "imp-1", modelInfo: "rec-v12", feedPosition: 3)
        page.show(["a", "b"]) { $0 == "a" ? context : nil }
        page.at(1_000)
        page.tracker.update(ExposureLayout(window: ExposureFixture.window, items: [
            ExposureItem(itemId: "a", frame: Rect(x: 0, y: 0, width: 400, height: 200), context: context),
            ExposureItem(itemId: "b", frame: Rect(x: 0, y: 660, width: 400, height: 200)),
        ]))
        page.at(1_620)
        page.tracker.tick()
        let exposures = page.exposures
        #expect(exposures.map(\.itemId) == ["a", "b"])
        let a = try #require(exposures.first)
        #expect(a.pageId == "channel" && a.common.userId == "u-7")
        #expect(a.pageInstanceId == page.tracker.pageInstanceId)
        #expect(a.impressionId == "imp-1" && a.modelInfo == "rec-v12" && a.feedPosition == 3)
        #expect(a.clientTimestampMs == 1_763_700_001_500 && a.dwellMs == 1_620 && a.visibleRatio == 1)
        #expect(a.eventId.hasPrefix("019aa4b6-4adc-7"))
        #expect(exposures[1].impressionId == nil && exposures[1].feedPosition == nil)
        #expect(exposures[1].visibleRatio == 0.7, "the smallest share seen during the run")
        #expect(Set(exposures.map(\.eventId)).count == 2)
        #expect(page.tracker.hasExposed("a") && !page.tracker.hasExposed("c"))
    }
}
