#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// The real wall clock.
public struct SystemClock: TallyClock {
    /// A wall clock.
    public init() {}

    /// The current instant, in milliseconds since the Unix epoch.
    public func nowMs() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
