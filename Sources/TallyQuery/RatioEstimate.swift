import Foundation

/// A ratio of sums over users, R = Σ d / Σ n, with its variance by the delta method with
/// users as the unit (`metrics.md`, model comparison): the impressions of one user are not
/// independent trials, the users are.
public struct RatioEstimate: Sendable, Equatable {
    /// One user's counts: `exposures` (n) and `dislikes` (d).
    public struct Counts: Sendable, Equatable {
        /// The user's impressions counted as exposures, n.
        public var exposures: Int64
        /// Those counted as dislikes, d.
        public var dislikes: Int64

        /// Creates one user's counts.
        public init(exposures: Int64, dislikes: Int64) {
            self.exposures = exposures
            self.dislikes = dislikes
        }

        /// Adds another row's counts of the same user.
        mutating func add(exposures: Int64, dislikes: Int64) {
            self.exposures += exposures
            self.dislikes += dislikes
        }
    }

    /// The z of a two-sided 95 % interval.
    static let z = 1.96

    /// The number of users, k.
    public let users: Int
    /// Σ n.
    public let exposures: Int64
    /// Σ d.
    public let dislikes: Int64
    /// R = Σ d / Σ n; nil when Σ n = 0.
    public let rate: Double?
    /// V(R) = (s_d² − 2·R·s_nd + R²·s_n²) / (k · n̄²); nil when k < 2 or Σ n = 0.
    public let variance: Double?

    /// The estimate over `users`, one element per user, in any order: the variance's sum of
    /// squares is kept as a whole number, so every order (and every backend) gives the same bits.
    public init(_ users: some Collection<Counts>) {
        self.users = users.count
        exposures = users.reduce(0) { $0 + $1.exposures }
        dislikes = users.reduce(0) { $0 + $1.dislikes }
        guard exposures > 0 else {
            rate = nil
            variance = nil
            return
        }
        let r = Double(dislikes) / Double(exposures)
        rate = r
        guard users.count >= 2 else {
            variance = nil
            return
        }
        // s_d² − 2R·s_nd + R²·s_n² is the sample variance of d − R·n, whose mean is 0 (Σ d = R·Σ n):
        // Σ (d − R·n)² = Σ (N·d − D·n)² / N², with N = Σ n and D = Σ d, whose sum of squares is exact.
        let k = Double(users.count)
        let n = Double(exposures)
        let squares = Self.scaledSquares(users, exposures: exposures, dislikes: dislikes) / (n * n)
        let meanExposures = n / k
        variance = squares / (k - 1) / (k * meanExposures * meanExposures)
    }

    /// Σ (N·d − D·n)² over `users`, computed in 128-bit whole numbers and rounded once; should a
    /// term pass 2⁶³ (stores far beyond any machine's), in floating point.
    private static func scaledSquares(_ users: some Collection<Counts>, exposures: Int64, dislikes: Int64) -> Double {
        var high: UInt64 = 0, low: UInt64 = 0
        for user in users {
            let (a, overA) = exposures.multipliedReportingOverflow(by: user.dislikes)
            let (b, overB) = dislikes.multipliedReportingOverflow(by: user.exposures)
            let (term, overTerm) = a.subtractingReportingOverflow(b)
            let square = term.magnitude.multipliedFullWidth(by: term.magnitude)
            let (sum, carry) = low.addingReportingOverflow(square.low)
            let (top, overTop) = high.addingReportingOverflow(square.high)
            let (topCarried, overCarry) = top.addingReportingOverflow(carry ? 1 : 0)
            guard !(overA || overB || overTerm || overTop || overCarry) else {
                return users.reduce(0.0) { total, user in
                    let term = Double(exposures) * Double(user.dislikes) - Double(dislikes) * Double(user.exposures)
                    return total + term * term
                }
            }
            low = sum
            high = topCarried
        }
        return Double(high) * 0x1p64 + Double(low)
    }

    /// R ∓ 1.96·√V clipped to [0, 1]; nil when V is undefined.
    public var interval: (low: Double, high: Double)? {
        guard let rate, let variance else { return nil }
        let half = Self.z * variance.squareRoot()
        return (max(0, rate - half), min(1, rate + half))
    }

    /// This estimate against `baseline`, the two treated as independent.
    public func compared(with baseline: RatioEstimate) -> Difference? {
        guard let rate, let baseRate = baseline.rate else { return nil }
        let difference = rate - baseRate
        let variance = self.variance.flatMap { mine in baseline.variance.map { mine + $0 } }
        let half = variance.map { Self.z * $0.squareRoot() }
        return Difference(
            difference: difference,
            low: half.map { difference - $0 }, high: half.map { difference + $0 },
            relative: baseRate == 0 ? nil : rate / baseRate - 1,
            pValue: variance.flatMap { $0 > 0 ? erfc(abs(difference) / (2 * $0).squareRoot()) : nil })
    }

    /// A difference of two rates R(m) − R(B) with its 95 % interval and two-sided p-value.
    public struct Difference: Sendable, Equatable {
        /// R(m) − R(B).
        public var difference: Double
        /// difference − 1.96·√(V(m) + V(B)); nil when a variance is undefined.
        public var low: Double?
        /// difference + 1.96·√(V(m) + V(B)); nil when a variance is undefined.
        public var high: Double?
        /// R(m) / R(B) − 1; nil when R(B) = 0.
        public var relative: Double?
        /// erfc(|difference| / √(2·(V(m) + V(B)))); nil when the variance is undefined or 0.
        public var pValue: Double?
    }
}
