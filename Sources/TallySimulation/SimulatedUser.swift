import Foundation
import TallyEvents
import TallyKit

/// One simulated user and their device: day after day of launches at plausible local hours,
/// reading sessions, feed browsing, network outages and app kills, all on a virtual clock,
/// while ``GroundTruth`` counts what really happened.
@MainActor
final class SimulatedUser {
    /// A material of the catalogue every user reads from.
    struct Material {
        var material: ReadingMaterial
        var pages: Int
    }

    static let catalogue: [Material] = [
        Material(material: ReadingMaterial(materialId: "kb-linear-algebra", title: "线性代数", knowledgeBaseId: "kb-math"), pages: 24),
        Material(material: ReadingMaterial(materialId: "kb-calculus", title: "微积分入门", knowledgeBaseId: "kb-math"), pages: 30),
        Material(material: ReadingMaterial(materialId: "book-three-body", title: "三体"), pages: 60),
        Material(material: ReadingMaterial(materialId: "book-swift", title: "The Swift Programming Language"), pages: 40),
        Material(material: ReadingMaterial(materialId: "doc-minutes", targetType: .temporaryFile, title: "会议纪要.pdf"), pages: 6),
        Material(material: ReadingMaterial(materialId: "doc-roadmap", targetType: .temporaryFile, title: "Roadmap 2027.pdf"), pages: 10),
        Material(material: ReadingMaterial(materialId: "kb-statistics", title: "统计学习方法", knowledgeBaseId: "kb-ml"), pages: 36),
        Material(material: ReadingMaterial(materialId: "kb-sql", title: "SQL Cookbook", knowledgeBaseId: "kb-data"), pages: 18),
    ]

    private let configuration: SimulationConfiguration
    private let common: EventCommon
    /// Whether the user is in the rollout of the candidate model.
    private let inRollout: Bool
    /// The model the feed shows today.
    private var model: String
    private let directory: URL
    private let output: URL
    private let clock: ManualClock
    private var random: Xoshiro256StarStar
    private var truth: GroundTruth
    private var device: SimulatedDevice?
    /// When the current network outage ends (`.min`: none yet).
    private var outageEndMs = Int64.min
    /// Whether the current outage leaves reachability up (the transport alone fails).
    private var outageReachable = false
    /// The page each material was left at.
    private var pages: [String: Int] = [:]
    private var lastNetworkCheckMs = Int64.min
    private var feedVisits = 0

    init(configuration: SimulationConfiguration, common: EventCommon, inRollout: Bool, directory: URL, output: URL,
         random: Xoshiro256StarStar) {
        self.configuration = configuration
        self.common = common
        self.inRollout = inRollout
        model = configuration.rollout.baseline
        self.directory = directory
        self.output = output
        self.random = random
        truth = GroundTruth(userId: common.userId, timezoneOffsetMinutes: common.timezoneOffsetMinutes,
                            platform: common.platform ?? "", appVersion: common.appVersion ?? "")
        clock = ManualClock(startMs: 0)
    }

    /// Simulates the user's days, then lets the device upload everything; answers what really happened.
    func run() async throws -> GroundTruth {
        let offsetMs = Int64(common.timezoneOffsetMinutes) * 60_000
        let lastDate = LocalDate(instantMs: configuration.endMs, offsetMinutes: common.timezoneOffsetMinutes)
        let firstDate = lastDate.adding(days: -(configuration.days - 1))
        let latestEndMs = configuration.endMs - 2 * 3_600_000
        clock.set(toMs: Int64(firstDate.dayNumber) * 86_400_000 - offsetMs)
        let rollout = configuration.rollout
        if inRollout && rollout.firstDay < configuration.days {
            truth.candidateFrom = firstDate.adding(days: max(rollout.firstDay, 0))
        }
        for day in 0..<configuration.days {
            model = rollout.model(day: day, inRollout: inRollout)
            let midnightMs = Int64(firstDate.adding(days: day).dayNumber) * 86_400_000 - offsetMs
            guard !random.chance(0.2) else { continue }
            let hours = (0..<random.draw(1...3)).map { _ in random.draw(7...21) }.sorted()
            for hour in hours {
                let launchMs = midnightMs + Int64(hour) * 3_600_000 + random.seconds(0...3_000)
                let limitMs = min(midnightMs + 23 * 3_600_000, latestEndMs)
                guard launchMs > clock.nowMs(), launchMs < limitMs - 1_800_000 else { continue }
                clock.set(toMs: launchMs)
                try await launch(until: limitMs)
            }
        }
        let final = try SimulatedDevice(directory: directory, output: output, clock: clock, common: common,
                                        offline: false, reachable: true, random: &random)
        try await final.drain()
        return truth
    }

    // MARK: Launches

    /// One launch: a cold start, one to three activities, then a quit or a kill.
    private func launch(until limitMs: Int64) async throws {
        var offline = clock.nowMs() < outageEndMs
        if configuration.outages && !offline && random.chance(0.1) {
            outageEndMs = clock.nowMs() + random.seconds(1_800...259_200)
            outageReachable = random.chance(0.5)
            truth.outages += 1
            offline = true
        }
        let device = try SimulatedDevice(directory: directory, output: output, clock: clock, common: common,
                                         offline: offline, reachable: !offline || outageReachable, random: &random)
        self.device = device
        lastNetworkCheckMs = clock.nowMs()
        device.observability.trackViewLoaded("home", loadDurationMs: loadDuration(offline: offline))
        truth.viewsLoaded += 1
        if offline && random.chance(0.5) {
            device.observability.trackRequestFailed(path: "/api/feed", status: 0, durationMs: random.seconds(5...30))
        }
        let activities = random.draw(1...3)
        let killed = configuration.kills && random.chance(0.15) ? random.draw(0...activities - 1) : -1
        for activity in 0..<activities where clock.nowMs() < limitMs {
            if random.chance(0.55) {
                await read(until: limitMs, killed: activity == killed)
            } else {
                try await browse(killed: activity == killed)
            }
            if activity == killed {
                device.kill()
                truth.kills += 1
                self.device = nil
                return
            }
            clock.advance(byMs: random.seconds(5...90))
            await checkNetwork()
        }
        await device.quit()
        self.device = nil
    }

    /// A `view_loaded` duration: mostly quick, now and then slow, slower offline.
    private func loadDuration(offline: Bool) -> Int64 {
        let base = Int64(random.draw(80...450))
        let slow = random.chance(0.1) ? Int64(random.draw(500...4_000)) : 0
        return base + slow + (offline ? 1_500 : 0)
    }

    /// Ticks the uploader every 30 virtual seconds and ends the outage once it is over.
    private func checkNetwork() async {
        guard let device, clock.nowMs() - lastNetworkCheckMs >= 30_000 else { return }
        lastNetworkCheckMs = clock.nowMs()
        if device.offline.withLock({ $0 }) && clock.nowMs() >= outageEndMs {
            await device.endOutage()
        }
        await device.uploader.tick()
    }

    // MARK: Reading

    /// A reading session: a second at a time, turning pages, pausing, leaving the app for a
    /// while, sometimes finishing and marking the material as read; a kill ends it unclosed.
    private func read(until limitMs: Int64, killed: Bool) async {
        guard let reader = device?.reading else { return }
        let started = Self.catalogue.filter { pages[$0.material.materialId] != nil && !truth.materialsCompleted.contains($0.material.materialId) }
        let pick = !started.isEmpty && random.chance(0.6)
            ? started[random.draw(0...started.count - 1)]
            : Self.catalogue[random.draw(0...Self.catalogue.count - 1)]
        let id = pick.material.materialId
        var page = pages[id] ?? 1
        truth.materialsStarted.insert(id)
        reader.openMaterial(pick.material, at: ReadingPosition(page: page, pageCount: pick.pages))
        let planned = random.draw(120...1_500)
        let killSecond = killed ? random.draw(1...planned) : -1
        for second in 1...planned where clock.nowMs() < limitMs {
            clock.advance(byMs: 1_000)
            reader.tick()
            let date = LocalDate(instantMs: clock.nowMs() - 1, offsetMinutes: common.timezoneOffsetMinutes)
            truth.secondsByDate[date, default: 0] += 1
            await checkNetwork()
            if second == killSecond { break }
            if random.chance(1.0 / 50) {
                page = min(page + 1, pick.pages)
                reader.updatePosition(ReadingPosition(page: page, pageCount: pick.pages))
                if page == pick.pages {
                    if random.chance(0.8) {
                        reader.markAsRead()
                        truth.materialsCompleted.insert(id)
                    }
                    break
                }
            } else if random.chance(1.0 / 400) {
                reader.pause()
                clock.advance(byMs: random.seconds(10...180))
                reader.resume()
            } else if random.chance(1.0 / 600) {
                await leaveApp(reader)
            }
        }
        pages[id] = page
        if !killed { reader.closeMaterial() }
    }

    /// The reader leaves the app for a while (now and then past the 30-minute session timeout).
    private func leaveApp(_ reader: ReadingTracker) async {
        reader.appDidEnterBackground()
        await device?.uploader.appDidEnterBackground()
        clock.advance(byMs: random.chance(0.2) ? random.seconds(1_860...2_400) : random.seconds(5...300))
        reader.appWillEnterForeground()
        await checkNetwork()
    }

    // MARK: Feed

    /// A visit to the home feed of today's model: stops three rows apart, each either dwelt on (2 to 8 s, every
    /// row in view fully visible, so exposed) or flicked past at once; some reactions to what
    /// was dwelt on; a kill leaves the page without telling the tracker.
    private func browse(killed: Bool) async throws {
        guard let device else { return }
        feedVisits += 1
        let firstItem = random.draw(0...9_999)
        let cards = (0..<30).map { index in
            RecommendationCard(
                sectionId: "item-\((firstItem + index * 37) % 10_000)",
                context: ExposureContext(impressionId: "imp-\(String(random.next(), radix: 36))", modelInfo: model,
                                         feedPosition: index))
        }
        let feed = Feed(sections: cards)
        let tracker = ExposureTracker(pageId: "home", common: common, sink: device.queue, clock: clock, random: random.split())
        tracker.handle(.appeared)
        let viewport = Rect(x: 0, y: 100, width: 400, height: 3 * RecommendationCard.height)
        let window = Rect(x: 0, y: 0, width: 400, height: 800)
        var offset = 0.0
        let stops = random.draw(2...10)
        let killStop = killed ? random.draw(0...stops - 1) : -1
        for stop in 0..<stops {
            if stop == 0 {
                tracker.update(feed.exposureLayout(scrollOffset: offset, viewport: viewport, window: window))
            } else {
                for _ in 0..<3 {
                    clock.advance(byMs: 100)
                    offset += RecommendationCard.height
                    tracker.update(feed.exposureLayout(scrollOffset: offset, viewport: viewport, window: window))
                }
            }
            if random.chance(0.6) {
                let dwellSteps = random.draw(4...16)
                for _ in 0..<dwellSteps {
                    clock.advance(byMs: 500)
                    tracker.tick()
                }
                let first = Int(offset / RecommendationCard.height)
                for card in cards[first..<first + 3] {
                    truth.exposures.insert(tracker.pageInstanceId + " " + card.sectionId)
                    truth.modelOfImpression[card.context.impressionId] = card.context.modelInfo
                    if random.chance(0.08) { try await react(to: card) }
                }
                await checkNetwork()
            }
            if stop == killStop { return }
        }
        tracker.handle(.disappeared)
    }

    /// A like or a dislike with a reason (dislikes as often as the card's model draws them),
    /// sometimes undone (and then sometimes liked after all).
    private func react(to card: RecommendationCard) async throws {
        guard let device else { return }
        let context = try RecommendationContext(
            impressionId: card.context.impressionId, modelInfo: card.context.modelInfo,
            feedPosition: card.context.feedPosition, businessPayload: ["itemId": .string(card.sectionId)])
        let reasons = FeedbackViewModel.defaultReasons
        let model = FeedbackViewModel(context: context, sink: device.queue, clock: clock, common: common,
                                      reasons: reasons, random: random.split())
        var final = FeedbackEvent.Kind.like
        if !random.chance(configuration.rollout.dislikeShare(of: card.context.modelInfo)) {
            await model.like()
        } else {
            await model.dislike()
            await model.chooseReason(reasons[random.draw(0...reasons.count - 1)])
            final = .dislike
        }
        if random.chance(0.15) {
            clock.advance(byMs: random.seconds(1...5))
            await model.undo()
            final = .neutral
            if random.chance(0.5) {
                clock.advance(byMs: 1_000)
                await model.like()
                final = .like
            }
        }
        let impression = card.context.impressionId
        truth.liked.remove(impression)
        truth.disliked.remove(impression)
        switch final {
        case .like: truth.liked.insert(impression)
        case .dislike: truth.disliked.insert(impression)
        default: break
        }
    }
}
