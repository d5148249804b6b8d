import TallyEvents

/// The event filters of the feed reports (`metrics.md`, "Event filters of the feed reports"):
/// only the feedback and exposure events whose local date lies in `from...to` (either end may be
/// absent) and whose `platform` / `appVersion` equal the values given are kept; every number is
/// then computed on those events alone. The empty filter keeps every event.
public struct FeedFilter: Sendable, Equatable {
    /// The first local date kept, or nil for no lower bound.
    public var from: LocalDate?
    /// The last local date kept, or nil for no upper bound.
    public var to: LocalDate?
    /// The platform kept (an event without one is left out), or nil for all.
    public var platform: String?
    /// The app version kept (an event without one is left out), or nil for all.
    public var appVersion: String?

    /// Creates a filter from typed values.
    public init(from: LocalDate? = nil, to: LocalDate? = nil, platform: String? = nil, appVersion: String? = nil) {
        self.from = from
        self.to = to
        self.platform = platform
        self.appVersion = appVersion
    }

    /// Parses the values as given on the command line or in a query string: dates as
    /// `YYYY-MM-DD`; an empty value counts as absent.
    ///
    /// A `from` after `to` is an empty window, which keeps no event.
    ///
    /// - Throws: `QueryError.invalidParameter` for a date that is not a calendar date.
    public static func parse(from: String?, to: String?, platform: String?, appVersion: String?) throws -> FeedFilter {
        func date(_ text: String?, _ name: String) throws -> LocalDate? {
            guard let text, !text.isEmpty else { return nil }
            guard let date = LocalDate(iso: text), date.description == text else {
                throw QueryError.invalidParameter(name: name, message: "\(name) must be a date YYYY-MM-DD, got \"\(text)\"")
            }
            return date
        }
        return FeedFilter(from: try date(from, "from"), to: try date(to, "to"),
                          platform: platform.flatMap { $0.isEmpty ? nil : $0 }, appVersion: appVersion.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Whether the filter keeps every event (the reports then read the rollups kept at ingest).
    public var isEmpty: Bool {
        from == nil && to == nil && platform == nil && appVersion == nil
    }

    /// The filter's parameters of the saved `*_scan` queries: `from`, `to` (`YYYY-MM-DD`),
    /// `platform` and `app_version`, NULL where absent.
    package var parameters: [String: QueryValue] {
        ["from": QueryValue(from?.description), "to": QueryValue(to?.description),
         "platform": QueryValue(platform), "app_version": QueryValue(appVersion)]
    }
}
