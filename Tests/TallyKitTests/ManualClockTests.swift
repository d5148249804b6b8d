import Testing
import TallyKit

struct ManualClockTests {
    @Test func movesOnlyWhenTold() {
        let clock = ManualClock(startMs: 1_000)
        #expect(clock.nowMs() == 1_000)
        clock.advance(byMs: 500)
        #expect(clock.nowMs() == 1_500)
        clock.set(toMs: 2_000)
        #expect(clock.nowMs() == 2_000)
    }
}
