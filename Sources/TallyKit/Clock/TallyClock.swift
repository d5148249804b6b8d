/// Where every kit reads the time: wall-clock milliseconds since the Unix epoch.
///
/// Kits never read the system clock themselves. Production code passes ``SystemClock``;
/// tests and `report simulate` pass a ``ManualClock`` and move it explicitly, so timers,
/// dwell times, heartbeats and backoff are exercised without sleeping.
public protocol TallyClock: Sendable {
    /// The current instant, in milliseconds since the Unix epoch.
    func nowMs() -> Int64
}
