/// A batch cut from another one: which of its lines, and in what state it starts.
struct BatchPart {
    /// The 0-based lines of the original batch, in order.
    var lines: [Int]
    /// The new batch's state.
    var state: BatchState
    /// When to try it (nil: at the next flush).
    var nextAttemptMs: Int64?
    /// The error it carries.
    var error: String?
}
