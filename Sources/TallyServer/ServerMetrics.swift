import Foundation
import NIOConcurrencyHelpers
import TallyEvents
import TallyIngest
import TallyQuery
import TallySupport

/// What `GET /metrics` reports, in Prometheus' text format (version 0.0.4): requests by route,
/// method and status with a latency histogram by route, events by family and outcome, ad hoc
/// statements stopped by each limit, the bytes of ad hoc answers held (now and at most),
/// connections open and evicted, and the store's size.
/// Counters start when the server does.
final class ServerMetrics: Sendable {
    /// A limit that stops or refuses an ad hoc statement.
    enum SQLLimit: String, CaseIterable {
        /// It ran past `--sql-timeout` (408).
        case sqlTimeout = "sql-timeout"
        /// Its result or a value in it passed `--sql-max-rows` or `--sql-max-bytes` (400).
        case sqlTooLarge = "sql-too-large"
        /// Its client went away, or the server stopped.
        case clientGone = "client-gone"
        /// Every `/sql` thread was busy (503).
        case sqlThreads = "sql-threads"
        /// The read-only authorizer refused it before it ran (400).
        case readOnly = "read-only"

        /// The limit behind `error`, what ended a statement; nil for an error no limit made
        /// (the statement's own fault, the store's).
        init?(stopping error: any Error) {
            switch error {
            case let error as StatementInterrupted:
                switch error.cause {
                case .timeLimit: self = .sqlTimeout
                case .bytes, .rows: self = .sqlTooLarge
                case .cancelled: self = .clientGone
                }
            case is AdHocRefused: self = .readOnly
            default: return nil
            }
        }
    }

    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private struct Histogram {
        var counts = [Int](repeating: 0, count: ServerMetrics.bucketBounds.count)
        var sum = 0.0
        var count = 0
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var durations: [String: Histogram] = [:]
        var events: [String: Int] = [:]
        var sqlStopped: [SQLLimit: Int] = [:]
        var sqlHeld = 0
        var sqlHeldMost = 0
    }

    /// The upper bounds of the latency buckets, in seconds.
    static let bucketBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// The methods counted by name; any other is counted as `other`.
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
    /// What a write can do with an event.
    static let outcomes = ["accepted", "duplicate", "rejected"]

    private let state = NIOLockedValueBox(State())

    /// Counts one answered request: its route (the path template, `other` for no route), method,
    /// status and how long it took to answer.
    func request(route: String, method: String, status: Int, seconds: Double) {
        state.withLockedValue { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            var histogram = state.durations[route] ?? Histogram()
            if let bucket = Self.bucketBounds.firstIndex(where: { seconds <= $0 }) { histogram.counts[bucket] += 1 }
            histogram.sum += seconds
            histogram.count += 1
            state.durations[route] = histogram
        }
    }

    /// Counts the events of one stored body by family and outcome (`unknown` for a record that
    /// could not be read as an event of any family).
    func stored(_ outcomes: StoreWriter.Outcomes) {
        state.withLockedValue { state in
            for (entry, outcome) in outcomes {
                let family = if case .success(let event) = entry.result { event.family.rawValue } else { "unknown" }
                let name = switch outcome {
                case .accepted: "accepted"
                case .duplicate: "duplicate"
                case .rejected: "rejected"
                }
                state.events[family + " " + name, default: 0] += 1
            }
        }
    }

    /// Counts an ad hoc statement stopped or refused by `limit`.
    func sqlStopped(_ limit: SQLLimit) {
        state.withLockedValue { $0.sqlStopped[limit, default: 0] += 1 }
    }

    /// Counts the bytes of streamed ad hoc answers held (rendered and not yet written): grown by
    /// `delta` > 0, shrunk by `delta` < 0.
    func sqlHeld(_ delta: Int) {
        state.withLockedValue { state in
            state.sqlHeld += delta
            state.sqlHeldMost = max(state.sqlHeldMost, state.sqlHeld)
        }
    }

    /// The exposition: every family with `# HELP` and `# TYPE`, samples in a stable order;
    /// `storeBytes` nil leaves the store's size out.
    func text(connectionsOpen: Int, connectionsEvicted: Int, storeBytes: Int64?) -> String {
        let state = state.withLockedValue { $0 }
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
            let text = labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",")
            out += labels.isEmpty ? "\(name) \(value)\n" : "\(name){\(text)} \(value)\n"
        }

        family("tally_http_requests_total", "counter", "Requests answered, by route (path template), method and status.")
        for (key, count) in state.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            sample("tally_http_requests_total", [("route", key.route), ("method", key.method), ("status", String(key.status))], String(count))
        }
        family("tally_http_request_duration_seconds", "histogram", "Time from a request's head to its answer's head, by route.")
        for (route, histogram) in state.durations.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (bound, count) in zip(Self.bucketBounds, histogram.counts) {
                cumulative += count
                sample("tally_http_request_duration_seconds_bucket", [("route", route), ("le", String(bound))], String(cumulative))
            }
            sample("tally_http_request_duration_seconds_bucket", [("route", route), ("le", "+Inf")], String(histogram.count))
            sample("tally_http_request_duration_seconds_sum", [("route", route)], String(histogram.sum))
            sample("tally_http_request_duration_seconds_count", [("route", route)], String(histogram.count))
        }
        family("tally_events_total", "counter", "Events in upload bodies, by family and outcome (accepted, duplicate, rejected).")
        let families = EventFamily.allCases.map(\.rawValue) + ["unknown"]
        for family in families {
            for outcome in Self.outcomes {
                sample("tally_events_total", [("family", family), ("outcome", outcome)], String(state.events[family + " " + outcome] ?? 0))
            }
        }
        family("tally_sql_statements_stopped_total", "counter", "Ad hoc statements stopped or refused, by the limit that did it.")
        for limit in SQLLimit.allCases {
            sample("tally_sql_statements_stopped_total", [("limit", limit.rawValue)], String(state.sqlStopped[limit] ?? 0))
        }
        family("tally_sql_answer_bytes_held", "gauge", "Bytes of ad hoc answers rendered and not yet written, now.")
        sample("tally_sql_answer_bytes_held", [], String(state.sqlHeld))
        family("tally_sql_answer_bytes_held_max", "gauge", "The most bytes of ad hoc answers held at once since the server started.")
        sample("tally_sql_answer_bytes_held_max", [], String(state.sqlHeldMost))
        family("tally_connections_open", "gauge", "Connections open now.")
        sample("tally_connections_open", [], String(connectionsOpen))
        family("tally_connections_evicted_total", "counter", "Connections without a request head closed at --max-connections to make room.")
        sample("tally_connections_evicted_total", [], String(connectionsEvicted))
        if let storeBytes {
            family("tally_store_size_bytes", "gauge", "The store's size on disk.")
            sample("tally_store_size_bytes", [], String(storeBytes))
        }
        return out
    }

    /// A label value with `\`, `"` and line feeds escaped.
    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
