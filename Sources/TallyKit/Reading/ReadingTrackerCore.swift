import TallyEvents

/// The state machine behind ``ReadingTracker``: every method takes the current instant, so the
/// logic never reads a clock. Used under the tracker's lock.
struct ReadingTrackerCore {
    let configuration: ReadingTrackerConfiguration
    let sink: any EventSink
    let store: any ReadingStateStore
    let onStateError: @Sendable (any Error) -> Void
    var common: EventCommon
    var random: any RandomNumberGenerator
    /// The open session; its record is what the store holds.
    var session: ReadingSessionRecord?
    /// Whether the app is in the background (no session counts time then).
    var inBackground = false
    /// When a `position_changed` is owed for the session's latest position, if one is.
    var positionDueMs: Int64?
    /// When the session's state was last saved.
    var lastSavedMs: Int64 = 0

    private var isActive: Bool {
        guard let session else { return false }
        return !session.paused && !inBackground
    }

    // MARK: Launch

    /// Closes the session a previous launch left open: at its last recorded activity, with the
    /// active time recorded as unsent up to then and the sequence it had reached.
    mutating func closeStaleSession() {
        let record: ReadingSessionRecord?
        do {
            record = try store.load()
        } catch {
            onStateError(error)
            return
        }
        guard let record else { return }
        session = record
        emit(.materialClosed, at: record.lastActivityMs, activeSeconds: roundedSeconds(record.unsentActiveMs))
        session = nil
        save(at: record.lastActivityMs)
    }

    // MARK: Commands

    mutating func open(_ material: ReadingMaterial, at position: ReadingPosition?, now: Int64) {
        advance(to: now)
        if let session {
            guard session.material.materialId != material.materialId else { return }
            close(now: now)
        }
        session = ReadingSessionRecord(
            sessionId: UUIDv7.make(ms: now, using: &random), material: material, nextSequence: 1, accountedToMs: now,
            unsentActiveMs: 0, paused: false, backgroundSinceMs: inBackground ? now : nil, position: position)
        positionDueMs = nil
        emit(.materialOpened, at: now)
        save(at: now)
    }

    mutating func close(now: Int64) {
        let now = advance(to: now)
        guard let session else { return }
        emit(.materialClosed, at: now, activeSeconds: roundedSeconds(session.unsentActiveMs))
        self.session = nil
        positionDueMs = nil
        save(at: now)
    }

    mutating func pause(now: Int64) {
        guard session?.paused == false else { return }
        let now = advance(to: now)
        flushPartialTime(now: now)
        session?.paused = true
        save(at: now)
    }

    mutating func resume(now: Int64) {
        guard session?.paused == true else { return }
        let now = advance(to: now)
        session?.paused = false
        save(at: now)
    }

    mutating func enterBackground(now: Int64) {
        guard !inBackground else { return }
        let now = advance(to: now)
        inBackground = true
        guard session != nil else { return }
        flushPartialTime(now: now)
        session?.backgroundSinceMs = now
        save(at: now)
    }

    mutating func enterForeground(now: Int64) {
        guard inBackground else { return }
        let now = advance(to: now)
        inBackground = false
        guard let session, let since = session.backgroundSinceMs else { return }
        if now - since > configuration.backgroundSessionTimeoutMs {
            // Too long away: the old session ended when the app left; reading goes on in a new one.
            emit(.materialClosed, at: since, activeSeconds: roundedSeconds(session.unsentActiveMs))
            self.session = nil
            positionDueMs = nil
            open(session.material, at: session.position, now: now)
            self.session?.paused = session.paused
        } else {
            self.session?.backgroundSinceMs = nil
        }
        save(at: now)
    }

    mutating func updatePosition(_ position: ReadingPosition, now: Int64) {
        guard session != nil else { return }
        let now = advance(to: now)
        guard session?.position != position else { return }
        session?.position = position
        if positionDueMs == nil {
            positionDueMs = now + configuration.positionDebounceMs
        }
        advance(to: now)
    }

    mutating func markAsRead(now: Int64) {
        guard session != nil else { return }
        let now = advance(to: now)
        positionDueMs = nil
        emit(.markedAsRead, at: now)
        save(at: now)
    }

    /// Emits what is due by `now` (heartbeats, a debounced position) and saves a checkpoint
    /// when one is due.
    mutating func tick(now: Int64) {
        advance(to: now)
    }

    // MARK: Time

    /// Brings the session up to `now`: emits each heartbeat and debounced position at the
    /// instant it fell due (so a late tick changes nothing in the events), then counts the
    /// active time up to `now`. A clock that went backwards counts nothing, and the instant
    /// returned, which later events of the command are stamped with, is then the last one
    /// accounted for, so a session's timestamps never decrease.
    @discardableResult
    private mutating func advance(to requested: Int64) -> Int64 {
        guard let start = session?.accountedToMs else { return requested }
        let now = max(requested, start)
        var emitted = false
        while let session {
            let heartbeatDue = isActive
                ? session.accountedToMs + configuration.heartbeatIntervalMs - session.unsentActiveMs : .max
            let positionDue = positionDueMs ?? .max
            let due = min(heartbeatDue, positionDue)
            guard due <= now else { break }
            account(to: due)
            if heartbeatDue <= positionDue {
                emit(.heartbeat, at: due, activeSeconds: Int(configuration.heartbeatIntervalMs / 1_000))
                self.session?.unsentActiveMs = 0
            } else {
                emit(.positionChanged, at: due)
            }
            positionDueMs = nil
            emitted = true
        }
        account(to: now)
        if emitted || (isActive && now - lastSavedMs >= configuration.checkpointIntervalMs) {
            save(at: now)
        }
        return now
    }

    /// Counts the time from the last accounted instant to `instant` as active if the session is.
    private mutating func account(to instant: Int64) {
        guard let session else { return }
        if isActive {
            self.session?.unsentActiveMs += instant - session.accountedToMs
        }
        self.session?.accountedToMs = instant
    }

    /// On pause and background: sends the whole seconds counted since the last heartbeat
    /// (carrying the latest position) and keeps the rest; with none to send, sends a pending
    /// position now rather than leave it to a timer that may never run.
    private mutating func flushPartialTime(now: Int64) {
        guard let session else { return }
        let seconds = session.unsentActiveMs / 1_000
        if seconds > 0 {
            emit(.heartbeat, at: now, activeSeconds: Int(seconds))
            self.session?.unsentActiveMs -= seconds * 1_000
            positionDueMs = nil
        } else if positionDueMs != nil {
            emit(.positionChanged, at: now)
            positionDueMs = nil
        }
    }

    /// `ms` in whole seconds, halves rounded up, at most the 3600 s an event may carry: what a
    /// closing event carries.
    private func roundedSeconds(_ ms: Int64) -> Int {
        Int(min((max(ms, 0) + 500) / 1_000, 3_600))
    }

    // MARK: Output

    /// Enqueues an event of the session with its next sequence number and latest position.
    private mutating func emit(_ kind: ReadingEvent.Kind, at instant: Int64, activeSeconds: Int = 0) {
        guard let session else { return }
        let position = session.position
        sink.enqueue(.reading(ReadingEvent(
            eventId: UUIDv7.make(ms: instant, using: &random), clientSessionId: session.sessionId,
            materialId: session.material.materialId, kind: kind, clientTimestampMs: instant,
            sequence: session.nextSequence, activeSecondsDelta: activeSeconds, positionJSON: position?.jsonText,
            progress: position?.progress, targetType: session.material.targetType, title: session.material.title,
            knowledgeBaseId: session.material.knowledgeBaseId, common: common)))
        self.session?.nextSequence += 1
    }

    /// Saves the session (or its absence); a failure goes to `onStateError`.
    private mutating func save(at now: Int64) {
        lastSavedMs = now
        do {
            try store.save(session)
        } catch {
            onStateError(error)
        }
    }
}
