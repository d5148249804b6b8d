#if canImport(Combine)
import Combine
#endif
import TallyEvents

/// The state machine behind a like / dislike control on one recommended item
/// (`emotion-feedback-kit`). UI-free: a SwiftUI ``FeedbackView``, a UIKit cell or a simulation
/// drives it the same way.
///
/// - ``like()`` saves a like; ``dislike()`` opens the reasons panel (``FeedbackState/choosingReason``),
///   and ``chooseReason(_:)`` saves the dislike with the reason picked, or without one (`nil`,
///   the user skipped); ``dismissReasons()`` closes the panel without reacting. With no
///   reasons configured, a dislike is saved at once.
/// - ``undo()`` takes the reaction back (a `neutral` event).
/// - ``FeedbackState/succeeded(_:)`` means the event is durably queued: the sink's
///   `waitUntilDurable` returned. If it throws, the state is ``FeedbackState/failed(_:)`` and
///   ``retry()`` queues the same event (same id, so the server keeps one) again.
/// - Taps are ignored while a reaction is being saved or the panel is open, and a tap on the
///   reaction already saved does nothing: a double tap never sends two events.
/// - Each event's timestamp is later than the previous one's, even within one millisecond, so
///   the reports' "newest reaction" is always the last one made.
@MainActor
public final class FeedbackViewModel {
    /// Reasons offered when the caller gives none.
    public static let defaultReasons = ["Not interested", "Seen it too often", "Poor quality", "Misleading title"]

    /// What the control shows.
    #if canImport(Combine)
    @Published public private(set) var state: FeedbackState
    #else
    public private(set) var state: FeedbackState
    #endif
    /// The reaction last saved (`neutral`: none).
    public private(set) var reaction: FeedbackEvent.Kind
    /// The item's recommendation context, carried by every event.
    public let context: RecommendationContext
    /// The reasons the panel offers.
    public let reasons: [String]

    private let sink: any EventSink
    private let clock: any TallyClock
    private let common: EventCommon
    private var random: any RandomNumberGenerator
    private var lastTimestampMs = Int64.min
    private var stateBeforeReasons = FeedbackState.idle
    private var failedEvent: FeedbackEvent?

    /// A control for the item shown in `context`.
    ///
    /// - Parameters:
    ///   - sink: where events go (the durable queue).
    ///   - clock: the time source of events.
    ///   - common: user, platform, app version and time-zone offset written on every event.
    ///   - reasons: the dislike reasons offered; empty to save dislikes without asking.
    ///   - reaction: the reaction already saved for this impression (shown as succeeded).
    ///   - random: the source of ids' random bits (seeded in tests and simulations).
    public init(context: RecommendationContext, sink: any EventSink, clock: any TallyClock,
                common: EventCommon = EventCommon(), reasons: [String] = FeedbackViewModel.defaultReasons,
                reaction: FeedbackEvent.Kind = .neutral, random: some RandomNumberGenerator = Xoshiro256StarStar()) {
        self.context = context
        self.sink = sink
        self.clock = clock
        self.common = common
        self.reasons = reasons
        self.reaction = reaction
        self.random = random
        state = reaction == .neutral ? .idle : .succeeded(reaction)
    }

    /// Saves a like; ignored while busy or when the like is already saved.
    public func like() async {
        guard acceptsTap, state != .succeeded(.like) else { return }
        await submit(event(.like, reason: nil))
    }

    /// Opens the reasons panel (or, without reasons, saves the dislike); ignored while busy or
    /// when the dislike is already saved.
    public func dislike() async {
        guard acceptsTap, state != .succeeded(.dislike) else { return }
        if reasons.isEmpty {
            await submit(event(.dislike, reason: nil))
        } else {
            stateBeforeReasons = state
            state = .choosingReason
        }
    }

    /// Saves the dislike with `reason`, or without one when nil (the user skipped); only while
    /// the reasons panel is open.
    public func chooseReason(_ reason: String?) async {
        guard state == .choosingReason else { return }
        await submit(event(.dislike, reason: reason))
    }

    /// Closes the reasons panel without reacting.
    public func dismissReasons() {
        guard state == .choosingReason else { return }
        state = stateBeforeReasons
    }

    /// Takes the saved reaction back (`neutral`); ignored while busy or with nothing to take back.
    public func undo() async {
        guard acceptsTap, reaction != .neutral else { return }
        await submit(event(.neutral, reason: nil))
    }

    /// Queues the event that failed again, unchanged; only in the failed state.
    public func retry() async {
        guard case .failed = state, let failedEvent else { return }
        await submit(failedEvent)
    }

    /// Whether a like, dislike or undo tap is taken now.
    private var acceptsTap: Bool {
        state != .submitting && state != .choosingReason
    }

    /// A new event of `kind`, stamped after every earlier one.
    private func event(_ kind: FeedbackEvent.Kind, reason: String?) -> FeedbackEvent {
        lastTimestampMs = max(clock.nowMs(), lastTimestampMs + 1)
        return FeedbackEvent(
            id: UUIDv7.make(ms: lastTimestampMs, using: &random), timestampMs: lastTimestampMs, kind: kind,
            reason: reason, impressionId: context.impressionId, modelInfo: context.modelInfo,
            feedPosition: context.feedPosition, itemId: context.itemId, contextJSON: context.jsonText, common: common)
    }

    /// Queues `event` and waits until it is on disk.
    private func submit(_ event: FeedbackEvent) async {
        state = .submitting
        let receipt = sink.enqueue(.feedback(event))
        do {
            try await sink.waitUntilDurable(receipt)
            failedEvent = nil
            reaction = event.kind
            state = .succeeded(event.kind)
        } catch {
            failedEvent = event
            state = .failed("Your feedback could not be saved: \(error)")
        }
    }
}

// MARK: - SwiftUI

#if canImport(Combine)
/// SwiftUI observes the model's `state` through its `@Published` wrapper.
extension FeedbackViewModel: ObservableObject {}
#endif
