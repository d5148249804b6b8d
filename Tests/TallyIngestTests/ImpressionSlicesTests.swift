import TallyIngest
import XCTest

/// `ImpressionSlices` keeps one (slice, group) inline and several in a dictionary: the facts,
/// `spans`, `only`, equality and the cell shares do not depend on which.
final class ImpressionSlicesTests: XCTestCase {
    typealias Slices = ImpressionSlices

    static let monday = Slices.Slice(localDate: "2026-11-16", platform: "ios", appVersion: "2.3.0")
    static let tuesday = Slices.Slice(localDate: "2026-11-17", platform: "ios", appVersion: "2.3.0")
    static let v12 = Slices.Key(slice: monday, modelInfo: "rec-v12", feedPosition: 3)
    static let v14 = Slices.Key(slice: monday, modelInfo: "rec-v14", feedPosition: 3)
    static let tuesdayV12 = Slices.Key(slice: tuesday, modelInfo: "rec-v12", feedPosition: 3)

    func reaction(_ ms: Int64, _ kind: String) -> Slices.Reaction {
        Slices.Reaction(order: OrderKey(timestampMs: ms, sequence: 0, key: "f\(ms)"), kind: kind, reason: nil)
    }

    func testOneExposureAndItsFeedbackAreOneFact() {
        var state = Slices()
        XCTAssertNil(state.only)
        state.expose(Self.v12)
        state.react(reaction(10, "dislike"), at: Self.v12)
        XCTAssertFalse(state.spans)
        XCTAssertEqual(state.only?.key, Self.v12)
        XCTAssertEqual(state.only?.fact, Slices.Fact(exposed: true, reaction: reaction(10, "dislike")))
        XCTAssertEqual(state.facts, [Self.v12: Slices.Fact(exposed: true, reaction: reaction(10, "dislike"))])
    }

    func testANewerFeedbackInAnotherGroupOfTheSliceTakesTheReactionAndDropsAnUnexposedFact() {
        var state = Slices()
        state.react(reaction(10, "like"), at: Self.v12)
        state.react(reaction(20, "dislike"), at: Self.v14)
        XCTAssertFalse(state.spans, "the older feedback's fact held nothing else")
        XCTAssertEqual(state.only?.key, Self.v14)
        state.react(reaction(5, "like"), at: Self.v12)
        XCTAssertEqual(state.facts, [Self.v14: Slices.Fact(reaction: reaction(20, "dislike"))], "an older feedback changes nothing")
    }

    func testSeveralSlicesSpanAndShareNoCell() {
        var state = Slices()
        state.expose(Self.v12)
        state.expose(Self.tuesdayV12)
        XCTAssertTrue(state.spans)
        XCTAssertNil(state.only)
        var cells: [Slices.Cell: DislikeDeltas.Counters] = [:]
        state.contribute(1, user: "u1", to: &cells)
        XCTAssertTrue(cells.isEmpty)
    }

    func testAFactLeavingSeveralLeavesTheOtherAsTheOnlyOne() {
        var state = Slices()
        state.react(reaction(10, "like"), at: Self.v12)
        state.expose(Self.tuesdayV12)
        XCTAssertTrue(state.spans)
        state.react(reaction(20, "dislike"), at: Self.v14)
        XCTAssertTrue(state.spans)
        var merged = Slices()
        merged.expose(Self.tuesdayV12)
        merged.react(reaction(20, "dislike"), at: Self.v14)
        XCTAssertEqual(state, merged, "equal whatever the order the facts came in")

        var single = Slices()
        single.react(reaction(10, "like"), at: Self.v12)
        single.react(reaction(20, "dislike"), at: Self.v14)
        XCTAssertEqual(single.only?.key, Self.v14)
        XCTAssertEqual(Slices().merging(state), state)
    }

    func testCellSharesOfTheOneFact() {
        var state = Slices()
        state.expose(Self.v12)
        state.react(reaction(10, "like"), at: Self.v12)
        var cells: [Slices.Cell: DislikeDeltas.Counters] = [:]
        state.contribute(1, user: "u1", to: &cells)
        let counters = cells[Slices.Cell(key: Self.v12, user: "u1")]
        XCTAssertEqual(counters?.exposed, 1)
        XCTAssertEqual(counters?.likes, 1)
        state.contribute(-1, user: "u1", to: &cells)
        XCTAssertEqual(cells[Slices.Cell(key: Self.v12, user: "u1")]?.exposed, 0)
    }
}
