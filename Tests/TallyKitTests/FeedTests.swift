import TallyEvents
import TallyKit
import Testing

struct FeedTests {
    struct Post: FeedSection, Equatable {
        var sectionId: String
        var likes = 0
        var rows: [FeedRow] {
            [FeedRow(itemId: "post-\(sectionId)", height: 300,
                     context: ExposureContext(impressionId: "imp-\(sectionId)", modelInfo: "rec-v1", feedPosition: 0))]
        }
    }

    struct Ad: FeedSection, Equatable {
        var sectionId: String
        var rows: [FeedRow] { [FeedRow(itemId: "ad-\(sectionId)", height: 150)] }
    }

    struct SuggestedUsers: FeedSection, Equatable {
        var sectionId: String
        var users: [String]
        var rows: [FeedRow] { users.map { FeedRow(itemId: "user-\($0)", height: 60) } }
    }

    @Test func aRefreshAnswersWithSectionAndRowChanges() {
        var feed = Feed(sections: [Post(sectionId: "1"), Ad(sectionId: "1"), Post(sectionId: "2")])
        let update = feed.update(to: [Post(sectionId: "2"), Post(sectionId: "1", likes: 1), Ad(sectionId: "1"),
                                      SuggestedUsers(sectionId: "s", users: ["a", "b"])])
        #expect(update.sections == DiffResult(inserts: [3], moves: [DiffMove(from: 2, to: 0), DiffMove(from: 0, to: 1),
                                                                    DiffMove(from: 1, to: 2)], updates: [0]))
        #expect(update.rows == DiffResult(inserts: [3, 4], moves: [DiffMove(from: 2, to: 0), DiffMove(from: 0, to: 1),
                                                                 DiffMove(from: 1, to: 2)]))
        #expect(feed.rows.map(\.itemId) == ["post-2", "post-1", "ad-1", "user-a", "user-b"])
        #expect(feed.contentHeight == 300 + 300 + 150 + 60 + 60)
        #expect(feed.top(ofRow: 3) == 750)
        #expect(!feed.update(to: feed.sections).sections.hasChanges)
    }

    @Test func theLayoutFramesTheRowsOverlappingTheViewportInWindowCoordinates() {
        let feed = Feed(sections: (0..<10).map { Post(sectionId: "\($0)") })
        let viewport = Rect(x: 0, y: 100, width: 400, height: 600)
        let layout = feed.exposureLayout(scrollOffset: 450, viewport: viewport, window: ExposureFixture.window)
        #expect(layout.items.map(\.itemId) == ["post-1", "post-2", "post-3"])
        #expect(layout.items.map(\.frame.minY) == [-50, 250, 550])
        #expect(layout.items.allSatisfy { $0.clips == [viewport] && $0.frame.height == 300 })
        #expect(layout.visibleArea(of: layout.items[0]) == 150 * 400)
        #expect(feed.exposureLayout(scrollOffset: 3_000, viewport: viewport, window: ExposureFixture.window).items.isEmpty)
    }

    @Test func scrollingAFeedExposesWhereTheUserStopsAndARefreshKeepsExposedItems() {
        let page = ExposureFixture()
        var feed = Feed(sections: (0..<40).map { Post(sectionId: "\($0)") })
        let viewport = ExposureFixture.window
        var offset = 0.0
        let lay = { page.tracker.update(feed.exposureLayout(scrollOffset: offset, viewport: viewport, window: viewport)) }
        lay()
        page.at(2_000)
        page.tracker.tick()
        // Fling to 6,000 pt at 3,000 pt/s, 30 layouts a second: rows pass in about 230 ms.
        for step in 1...60 {
            page.at(2_000 + Int64(step) * 1_000 / 30)
            offset = Double(step) * 100
            lay()
        }
        page.at(page.elapsedMs + 1_600)
        page.tracker.tick()
        #expect(page.exposures.map(\.itemId) == ["post-0", "post-1", "post-2", "post-20", "post-21", "post-22"])

        page.tracker.handle(.refreshed)
        feed.update(to: [Post(sectionId: "new")] + feed.sections)
        lay()
        page.at(page.elapsedMs + 1_500)
        page.tracker.tick()
        #expect(page.exposures.dropFirst(6).map(\.itemId) == ["post-19"])
        #expect(Set(page.exposures.map(\.pageInstanceId)).count == 1)
    }
}
