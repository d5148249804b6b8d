import Foundation
import TallyEvents
import TallyKit
import TallySupport
import TallyTestSupport
import Testing

struct ReadingTrackerRecoveryTests {
    private func readingEvents(_ sink: RecordingEventSink) -> [ReadingEvent] {
        sink.events.compactMap { if case .reading(let event) = $0 { event } else { nil } }
    }

    @Test func aKilledSessionIsClosedWithTheTimeItHad() throws {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material, at: ReadingPosition(page: 2, pageCount: 8))
        fixture.run(forMs: 27_000)  // heartbeat at 15 s; a checkpoint every second after it
        fixture.clock.advance(byMs: 3 * 3_600_000)  // killed at 27 s, relaunched three hours later

        let relaunched = RecordingEventSink()
        let tracker = fixture.relaunch(into: relaunched)
        let closed = readingEvents(relaunched)
        #expect(closed.count == 1)
        #expect(closed.first?.kind == .materialClosed)
        #expect(closed.first?.clientTimestampMs == ReadingTrackerFixture.start + 27_000)
        #expect(closed.first?.activeSecondsDelta == 12)
        #expect(closed.first?.sequence == 3)
        #expect(closed.first?.clientSessionId == fixture.events.first?.clientSessionId)
        #expect(closed.first?.progress == 0.25)
        #expect(closed.first?.title == "线性代数")
        #expect(tracker.session == nil)
        #expect(try fixture.store.load() == nil)

        let again = RecordingEventSink()
        _ = fixture.relaunch(into: again)
        #expect(again.events.isEmpty)
    }

    @Test func aSessionKilledInTheBackgroundEndsWhenTheAppLeft() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.run(forMs: 6_600, step: 200)
        fixture.tracker.appDidEnterBackground()
        fixture.run(forMs: 120_000, step: 10_000)

        let relaunched = RecordingEventSink()
        _ = fixture.relaunch(into: relaunched)
        let closed = readingEvents(relaunched)
        #expect(closed.map(\.kind) == [.materialClosed])
        #expect(closed.first?.clientTimestampMs == ReadingTrackerFixture.start + 6_600)
        #expect(closed.first?.activeSecondsDelta == 1)  // the 0.6 s kept at the background, rounded
        #expect(closed.first?.sequence == 3)
    }

    @Test func aPausedSessionKilledCountsNothingAfterThePause() {
        let fixture = ReadingTrackerFixture()
        fixture.tracker.openMaterial(ReadingTrackerFixture.material)
        fixture.run(forMs: 4_000)
        fixture.tracker.pause()
        fixture.run(forMs: 60_000)

        let relaunched = RecordingEventSink()
        _ = fixture.relaunch(into: relaunched)
        let closed = readingEvents(relaunched)
        #expect(closed.first?.activeSecondsDelta == 0)
        #expect(readingEvents(fixture.sink).map(\.activeSecondsDelta).reduce(0, +) == 4)
    }

    @Test func theSequenceSurvivesARelaunchThroughTheStateFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reading-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock(startMs: ReadingTrackerFixture.start)
        let sink = RecordingEventSink()
        let tracker = try ReadingTracker(sink: sink, clock: clock, stateDirectory: directory, random: SplitMix64(seed: 1))
        tracker.openMaterial(ReadingTrackerFixture.material)
        for _ in 0..<40 {
            clock.advance(byMs: 1_000)
            tracker.tick()
        }
        tracker.updatePosition(ReadingPosition(progress: 0.7))
        clock.advance(byMs: 2_000)
        tracker.tick()
        #expect(readingEvents(sink).map(\.sequence) == [1, 2, 3, 4])

        let relaunched = RecordingEventSink()
        _ = try ReadingTracker(sink: relaunched, clock: clock, stateDirectory: directory, random: SplitMix64(seed: 2))
        let closed = readingEvents(relaunched)
        #expect(closed.map(\.sequence) == [5])
        #expect(closed.first?.clientTimestampMs == ReadingTrackerFixture.start + 42_000)
        #expect(closed.first?.activeSecondsDelta == 12)
        #expect(closed.first?.progress == 0.7)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func anUnreadableStateFileIsReportedAndReplaced() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reading-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileReadingStateStore(directory: directory)
        try Data("{\"sessionId\":".utf8).write(to: store.fileURL)

        let errors = Locked<[String]>([])
        let sink = RecordingEventSink()
        let clock = ManualClock(startMs: ReadingTrackerFixture.start)
        let tracker = ReadingTracker(sink: sink, clock: clock, store: store, random: SplitMix64(seed: 3)) { error in
            errors.withLock { $0.append("\(error)") }
        }
        #expect(sink.events.isEmpty)
        #expect(errors.withLock { $0 }.count == 1)
        #expect(errors.withLock { $0 }.first?.hasPrefix(store.fileURL.path) == true)

        tracker.openMaterial(ReadingTrackerFixture.material)
        #expect(try store.load()?.sessionId == tracker.sessionId)
    }
}
