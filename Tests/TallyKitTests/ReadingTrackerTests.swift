import TallyEvents
import TallyKit
import TallySupport
import Testing

struct ReadingTrackerTests {
    @Test func heartbeatsEveryFifteenActiveSeconds() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.run(forMs: 47_000)
        fixture.tracker.closeMaterial()

        let events = fixture.events
        #expect(events.map(\.kind) == [.materialOpened, .heartbeat, .heartbeat, .heartbeat, .materialClosed])
        #expect(events.map(\.activeSecondsDelta) == [0, 15, 15, 15, 2])
        #expect(fixture.offsets == [0, 15_000, 30_000, 45_000, 47_000])
        #expect(events.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(Set(events.map(\.clientSessionId)).count == 1)
        #expect(events.allSatisfy { $0.materialId == "m-42" && $0.title == "线性代数" && $0.knowledgeBaseId == "kb-1" })
        #expect(events.allSatisfy { $0.common.userId == "u-1" })
        #expect(Set(events.map(\.eventId)).count == events.count)
        #expect(fixture.tracker.session == nil)
    }

    @Test func aLateTickGivesTheSameEvents() {
        let everySecond = ReadingTrackerFixture()
        let once = ReadingTrackerFixture()
        for fixture in [everySecond, once] {
            fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        }
        everySecond.run(forMs: 61_000)
        once.run(forMs: 61_000, step: 61_000)
        #expect(everySecond.offsets == once.offsets)
        #expect(once.offsets == [0, 15_000, 30_000, 45_000, 60_000])
    }

    @Test func pausedTimeIsNotCounted() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.run(forMs: 10_400, step: 200)
        fixture.tracker.pause()
        fixture.run(forMs: 60_000)
        fixture.tracker.resume()
        fixture.run(forMs: 20_000, step: 500)
        fixture.tracker.closeMaterial()

        let events = fixture.events
        #expect(events.map(\.kind) == [.materialOpened, .heartbeat, .heartbeat, .materialClosed])
        // 10 s sent at the pause, its 0.4 s kept: the next heartbeat falls 14.6 s after resuming.
        #expect(events.map(\.activeSecondsDelta) == [0, 10, 15, 5])
        #expect(fixture.offsets == [0, 10_400, 85_000, 90_400])
        #expect(events.map(\.activeSecondsDelta).reduce(0, +) == 30)
    }

    @Test func pauseAndResumeTwiceChangeNothing() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.run(forMs: 3_000)
        fixture.tracker.pause()
        fixture.tracker.pause()
        fixture.run(forMs: 3_000)
        fixture.tracker.resume()
        fixture.tracker.resume()
        fixture.run(forMs: 3_000)
        fixture.tracker.closeMaterial()
        #expect(fixture.events.map(\.activeSecondsDelta) == [0, 3, 3])
    }

    @Test func backgroundTimeIsNotCounted() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.run(forMs: 8_000)
        fixture.tracker.appDidEnterBackground()
        fixture.run(forMs: 600_000, step: 60_000)
        fixture.tracker.appWillEnterForeground()
        fixture.run(forMs: 16_000)
        fixture.tracker.closeMaterial()

        let events = fixture.events
        #expect(events.map(\.kind) == [.materialOpened, .heartbeat, .heartbeat, .materialClosed])
        #expect(events.map(\.activeSecondsDelta) == [0, 8, 15, 1])
        #expect(fixture.offsets == [0, 8_000, 623_000, 624_000])
        #expect(Set(events.map(\.clientSessionId)).count == 1)
    }

    @Test func pausedInTheBackgroundStaysPausedInTheForeground() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.tracker.pause()
        fixture.tracker.appDidEnterBackground()
        fixture.tracker.resume()
        fixture.run(forMs: 20_000)
        fixture.tracker.appWillEnterForeground()
        fixture.tracker.pause()
        fixture.run(forMs: 20_000)
        fixture.tracker.closeMaterial()
        #expect(fixture.events.map(\.activeSecondsDelta).reduce(0, +) == 0)
    }

    @Test func aLongAbsenceEndsTheSessionWhenTheAppLeft() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.tracker.updatePosition(ReadingPosition(page: 3, pageCount: 10))
        fixture.run(forMs: 5_000)
        fixture.tracker.appDidEnterBackground()
        fixture.clock.advance(byMs: 31 * 60_000)
        fixture.tracker.appWillEnterForeground()
        fixture.run(forMs: 15_000)

        let events = fixture.events
        #expect(events.map(\.kind) == [.materialOpened, .positionChanged, .heartbeat, .materialClosed,
                                       .materialOpened, .heartbeat])
        let away: Int64 = 31 * 60_000
        #expect(fixture.offsets == [0, 2_000, 5_000, 5_000, 5_000 + away, 20_000 + away])
        let sessions = events.map(\.clientSessionId)
        #expect(sessions[0] == sessions[3] && sessions[4] == sessions[5] && sessions[0] != sessions[4])
        #expect(events[4].sequence == 1 && events[4].progress == 0.3)
    }

    @Test func positionsAreDebounced() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material, at: ReadingPosition(page: 1, pageCount: 40))
        fixture.clock.advance(byMs: 3_000)
        fixture.tracker.updatePosition(ReadingPosition(page: 2, pageCount: 40))
        fixture.clock.advance(byMs: 500)
        fixture.tracker.updatePosition(ReadingPosition(page: 3, pageCount: 40))
        fixture.clock.advance(byMs: 1_000)
        fixture.tracker.updatePosition(ReadingPosition(page: 4, pageCount: 40))
        fixture.run(forMs: 3_000)

        let events = fixture.events
        #expect(events.map(\.kind) == [.materialOpened, .positionChanged])
        #expect(fixture.offsets == [0, 5_000])
        #expect(events[0].progress == 0.025)
        #expect(events[1].progress == 0.1)
        #expect(events[1].positionJSON == #"{"page":4,"pageCount":40,"progress":0.1}"#)
    }

    @Test func anUnchangedPositionIsNotSentAgain() {
        let fixture = ReadingTrackerFixture()
        let position = ReadingPosition(progress: 0.5, anchor: "epubcfi(/6/4)")
        fixture.tracker.openMaterial(ReadingTrackerFixture.material, at: position)
        fixture.tracker.updatePosition(position)
        fixture.run(forMs: 5_000)
        #expect(fixture.events.map(\.kind) == [.materialOpened])
    }

    @Test func aHeartbeatCarriesAPendingPosition() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.clock.advance(byMs: 14_000)
        fixture.tracker.updatePosition(ReadingPosition(progress: 0.42))
        fixture.run(forMs: 5_000)

        let events = fixture.events
        #expect(events.map(\.kind) == [.materialOpened, .heartbeat])
        #expect(events[1].progress == 0.42)
        #expect(events[1].positionJSON == #"{"progress":0.42}"#)
    }

    @Test func pauseSendsAPendingPositionWhenNoTimeIsOwed() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.clock.advance(byMs: 400)
        fixture.tracker.updatePosition(ReadingPosition(page: 9, pageCount: 10))
        fixture.tracker.pause()
        fixture.run(forMs: 5_000)
        #expect(fixture.events.map(\.kind) == [.materialOpened, .positionChanged])
        #expect(fixture.offsets == [0, 400])
    }

    @Test func markAsReadKeepsTheSessionOpen() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.run(forMs: 4_000)
        fixture.tracker.updatePosition(ReadingPosition(page: 10, pageCount: 10))
        fixture.tracker.markAsRead()
        fixture.run(forMs: 16_000)
        fixture.tracker.closeMaterial()

        let events = fixture.events
        #expect(events.map(\.kind) == [.materialOpened, .markedAsRead, .heartbeat, .materialClosed])
        #expect(events[1].progress == 1)
        #expect(events.map(\.sequence) == [1, 2, 3, 4])
        #expect(events.map(\.activeSecondsDelta).reduce(0, +) == 20)
    }

    @Test func openingAnotherMaterialClosesTheFirst() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.run(forMs: 3_000)
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.run(forMs: 3_000)
        fixture.tracker.openMaterial(ReadingMaterial(materialId: "tmp-1", targetType: .temporaryFile))
        fixture.tracker.closeMaterial()
        fixture.tracker.closeMaterial()

        let events = fixture.events
        #expect(events.map(\.kind) == [.materialOpened, .materialClosed, .materialOpened, .materialClosed])
        #expect(events.map(\.materialId) == ["m-42", "m-42", "tmp-1", "tmp-1"])
        #expect(events.map(\.activeSecondsDelta) == [0, 6, 0, 0])
        #expect(events.map(\.targetType) == [.knowledgeSource, .knowledgeSource, .temporaryFile, .temporaryFile])
        #expect(events.map(\.sequence) == [1, 2, 1, 2])
    }

    @Test func nothingHappensWithoutAnOpenMaterial() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.pause()
        fixture.tracker.resume()
        fixture.tracker.updatePosition(ReadingPosition(progress: 0.1))
        fixture.tracker.markAsRead()
        fixture.tracker.appDidEnterBackground()
        fixture.tracker.appWillEnterForeground()
        fixture.run(forMs: 60_000)
        fixture.tracker.closeMaterial()
        #expect(fixture.events.isEmpty)
    }
}

/// A clock the test sets anywhere, backwards included, as a wall clock may be.
private final class WallClock: TallyClock {
    let ms = Locked<Int64>(ReadingTrackerFixture.start)

    func nowMs() -> Int64 {
        ms.withLock { $0 }
    }
}

struct ReadingTrackerWallClockTests {
    @Test func aClockSetBackCountsNothingAndNeverStampsEarlier() {
        let clock = WallClock()
        let sink = RecordingEventSink()
        let tracker = ReadingTracker(sink: sink, clock: clock, store: InMemoryReadingStateStore())
        tracker.openMaterial(ReadingTrackerFixture.material)
        clock.ms.withLock { $0 += 10_000 }
        tracker.tick()
        clock.ms.withLock { $0 -= 60_000 }
        tracker.updatePosition(ReadingPosition(progress: 0.5))
        tracker.tick()
        clock.ms.withLock { $0 += 55_000 }  // 5 s after the original 10 s
        tracker.closeMaterial()

        let events = sink.events.compactMap { if case .reading(let event) = $0 { event } else { nil } }
        // Still at 10 s when closed: the position's window never ended, the close carries it.
        #expect(events.map(\.kind) == [.materialOpened, .materialClosed])
        #expect(events.last?.progress == 0.5)
        #expect(events.last?.clientTimestampMs == ReadingTrackerFixture.start + 10_000)
        let stamps = events.map(\.clientTimestampMs)
        #expect(stamps == stamps.sorted())
        #expect(events.map(\.activeSecondsDelta).reduce(0, +) == 10)
    }
}
