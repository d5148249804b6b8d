import Foundation

/// How `dislike-rate` groups impressions: by model version, feed position (optionally
/// bucketed), or both.
public struct DislikeGrouping: Sendable, Equatable {
    /// A range of feed positions reported as one group, such as `5-9` or `10-`.
    public struct Bucket: Sendable, Equatable {
        /// The lowest position included.
        public var low: Int
        /// The highest position included; nil for an open end.
        public var high: Int?

        /// The bucket as written: `0-4`, `10-`.
        public var label: String {
            high.map { "\(low)-\($0)" } ?? "\(low)-"
        }
    }

    /// Whether groups are split by `modelInfo`.
    public var byModel: Bool
    /// Whether groups are split by `feedPosition`.
    public var byPosition: Bool
    /// Position buckets; empty for one group per position.
    public var buckets: [Bucket]

    /// Creates a grouping.
    public init(byModel: Bool = true, byPosition: Bool = true, buckets: [Bucket] = []) {
        self.byModel = byModel
        self.byPosition = byPosition
        self.buckets = buckets
    }

    /// Parses `--by` (`model`, `position`, `model,position`).
    public init(by text: String, buckets: [Bucket] = []) throws {
        let parts = Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard !parts.isEmpty, parts.isSubset(of: ["model", "position"]) else {
            throw QueryError.invalidParameter(name: "by", message: "by must be model, position or model,position, got \"\(text)\"")
        }
        self.init(byModel: parts.contains("model"), byPosition: parts.contains("position"), buckets: buckets)
    }

    /// Parses `--position-buckets 0-4,5-9,10-`: ascending, non-overlapping ranges.
    public static func buckets(_ text: String) throws -> [Bucket] {
        var buckets: [Bucket] = []
        for part in text.split(separator: ",") {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let low = Int(bounds[0].trimmingCharacters(in: .whitespaces)), low >= 0,
                  bounds[1].trimmingCharacters(in: .whitespaces).isEmpty || Int(bounds[1].trimmingCharacters(in: .whitespaces)) != nil
            else {
                throw QueryError.invalidParameter(name: "position-buckets", message: "position-buckets must look like 0-4,5-9,10-, got \"\(text)\"")
            }
            let high = Int(bounds[1].trimmingCharacters(in: .whitespaces))
            let previousEnd = buckets.last.map { $0.high ?? Int.max }
            guard high.map({ $0 >= low }) ?? true, previousEnd.map({ $0 < low }) ?? true else {
                throw QueryError.invalidParameter(name: "position-buckets", message: "position-buckets must be ascending and must not overlap, got \"\(text)\"")
            }
            buckets.append(Bucket(low: low, high: high))
        }
        guard !buckets.isEmpty else {
            throw QueryError.invalidParameter(name: "position-buckets", message: "position-buckets must name at least one range, such as 0-4,5-")
        }
        return buckets
    }

    /// The `:buckets` parameter of `dislike_rate.sql`: `[[low, high, label], …]`, or nil.
    package var bucketsJSON: String? {
        guard !buckets.isEmpty else { return nil }
        return "[" + buckets.map { "[\($0.low),\($0.high.map(String.init) ?? "null"),\"\($0.label)\"]" }.joined(separator: ",") + "]"
    }
}
