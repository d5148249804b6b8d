import TallyEvents

/// What a feedback control shows, as ``FeedbackViewModel`` drives it.
public enum FeedbackState: Sendable, Equatable {
    /// No reaction yet: like and dislike are offered.
    case idle
    /// A reaction is being saved; taps are ignored until it is.
    case submitting
    /// The reaction is durably queued (on disk, uploaded later). `.neutral` after an undo.
    case succeeded(FeedbackEvent.Kind)
    /// The reaction could not be saved; `retry()` tries the same event again.
    case failed(String)
    /// The dislike reasons panel is open.
    case choosingReason
}
