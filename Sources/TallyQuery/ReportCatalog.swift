import TallyEvents

/// Every report, in the order `report --help` and the OpenAPI document list them. A new report
/// is one entry here (answered through the generic path: its `rows` over the backend's saved
/// queries), its SQL per dialect, its subcommand in `Sources/report` and its test
/// (`docs/contributing.md`).
public enum ReportCatalog {
    /// All the reports.
    public static let all: [ReportDefinition] = [
        summary, trend, heatmap, continueLearning, progress, dislikeRate, exposures, compare, latency, top, retention,
    ]

    /// The report named `name` (a subcommand).
    public static func named(_ name: String) -> ReportDefinition? {
        all.first { $0.name == name }
    }

    /// `summary`, `GET /learning/summary`.
    public static let summary = ReportDefinition(
        name: "summary", abstract: "The learning summary: totals, streaks and materials.",
        endpoint: .init(path: "/learning/summary", operationId: "summary", summary: "The learning summary (metrics.md).", schema: "LearningSummary"),
        parameters: []) { _ in .summary }

    /// `trend --days N`, `GET /learning/trend?days=N`.
    public static let trend = ReportDefinition(
        name: "trend", abstract: "Active time per day of the last N days.",
        endpoint: .init(path: "/learning/trend", operationId: "trend", summary: "Active time per day of the last N days.", schema: "Trend"),
        parameters: [.init(name: "days", kind: .days(default: 7), description: "The window's length in days.")]) { .trend(days: $0[int: "days"]) }

    /// `heatmap --days N`, `GET /activity/heatmap?days=N`.
    public static let heatmap = ReportDefinition(
        name: "heatmap", abstract: "A calendar of active time over the last N days.",
        endpoint: .init(path: "/activity/heatmap", operationId: "heatmap", summary: "One cell per day of the last N days, leveled 0...4.", schema: "Heatmap"),
        parameters: [.init(name: "days", kind: .days(default: 365), description: "The window's length in days.")]) { .heatmap(days: $0[int: "days"]) }

    /// `continue`, `GET /learning/continue`.
    public static let continueLearning = ReportDefinition(
        name: "continue", abstract: "The most recently read material not yet marked as read.",
        endpoint: .init(path: "/learning/continue", operationId: "continueLearning",
                        summary: "The most recently read material not marked as read.", schema: "ContinueLearning"),
        parameters: []) { _ in .continueLearning }

    /// `progress M`, `GET /materials/{M}/reading-progress`.
    public static let progress = ReportDefinition(
        name: "progress", abstract: "Reading progress of one material.",
        endpoint: .init(path: "/materials/{materialId}/reading-progress", operationId: "readingProgress",
                        summary: "Reading progress of one material.", schema: "ReadingProgress"),
        parameters: [.init(name: "materialId", kind: .path, description: "The material.", help: "The materialId.")]) { .progress(materialId: $0[text: "materialId"] ?? "") }

    /// `dislike-rate`, `GET /feed/dislike-rate`.
    public static let dislikeRate = ReportDefinition(
        name: "dislike-rate", abstract: "Dislike rate by model version and feed position, with a 95 % interval.",
        endpoint: .init(path: "/feed/dislike-rate", operationId: "dislikeRate",
                        summary: "Dislike rate by model version and feed position, with its Wilson 95 % interval.", schema: "Rows"),
        parameters: [
            .init(name: "by", kind: .choice(["model", "position", "model,position", "position,model"], default: "model,position",
                                            check: { _ = try DislikeGrouping(by: $0) }),
                  description: "Group keys.", help: "model, position or model,position."),
            positionBuckets,
            .init(name: "topReasons", kind: .integer(0...100, default: 0), description: "The K most frequent reasons of final dislikes per group.",
                  help: "Add the K most frequent reasons of final dislikes per group.", valueName: "K"),
        ] + feedFilters) { arguments in
            .dislikeRate(try DislikeGrouping(by: arguments[text: "by"] ?? "model,position", buckets: try buckets(arguments)),
                         topReasons: arguments[int: "topReasons"], filter: try feedFilter(arguments))
        }

    /// What `DislikeGrouping.buckets` takes, as a pattern: ranges `low-high` or `low-` joined by
    /// commas, with spaces around the numbers (whether the ranges ascend without overlapping is
    /// left to it). `0-4,5-9,10-` is one.
    static let bucketsPattern: String = {
        let range = #"\s*\+?[0-9]+\s*-\s*(\+?[0-9]+\s*)?"#
        return "^,*\(range)(,+\(range))*,*$"
    }()

    /// `exposures --by B`, `GET /feed/exposures?by=B`.
    public static let exposures = ReportDefinition(
        name: "exposures", abstract: "Exposure counts by day, page, item, model or position.",
        endpoint: .init(path: "/feed/exposures", operationId: "exposures", summary: "Exposure counts, one per page instance and item.", schema: "Rows"),
        parameters: [.init(name: "by", kind: .choice(ExposureGrouping.allCases.map(\.rawValue), default: "day", check: { _ = try ExposureGrouping(by: $0) }),
                           description: "The group key.", help: "day, page, item, model or position.")] + feedFilters) {
            .exposures(by: try ExposureGrouping(by: $0[text: "by"] ?? "day"), filter: try feedFilter($0))
        }

    /// `compare --baseline B`, `GET /feed/compare?baseline=B`.
    public static let compare = ReportDefinition(
        name: "compare", abstract: "Each model's dislike rate against a baseline model's, with users as the unit.",
        endpoint: .init(path: "/feed/compare", operationId: "compare",
                        summary: "Each model's dislike rate and its difference from the baseline's, with delta-method 95 % intervals over users.",
                        schema: "Rows", notFound: "The baseline has no impression under the filters (code INVALID_PARAMETER)."),
        parameters: [
            .init(name: "baseline", kind: .text(required: true, default: nil), description: "The model version compared against, such as rec-v12."),
            .init(name: "by", kind: .choice(["model", "model,position", "position,model"], default: "model", check: compareBy),
                  description: "Compare per model, or per model within each position.", help: "model or model,position."),
            positionBuckets,
        ] + feedFilters) { arguments in
            .compare(baseline: arguments[text: "baseline"] ?? "",
                     grouping: try DislikeGrouping(by: arguments[text: "by"] ?? "model", buckets: try buckets(arguments)),
                     filter: try feedFilter(arguments))
        }

    /// `latency --event E --field F --by P`, `GET /observability/latency`.
    public static let latency = ReportDefinition(
        name: "latency", abstract: "p50, p90, p99 and max of a numeric property, per group.",
        endpoint: .init(path: "/observability/latency", operationId: "latency",
                        summary: "Nearest-rank p50, p90, p99 and max of a numeric property, per group.", schema: "Rows"),
        parameters: [
            .init(name: "event", kind: .text(required: true, default: nil), description: "The event name, such as view_loaded."),
            .init(name: "field", kind: .text(required: true, default: nil), description: "The numeric property, such as load_duration_ms.",
                  help: "The numeric property measured, such as load_duration_ms."),
            .init(name: "by", kind: .text(required: false, default: "appVersion"), description: "The property to group by (default: appVersion).",
                  help: "The property to group by, such as app_version (appVersion falls back to the event's own)."),
        ]) { .latency(event: $0[text: "event"] ?? "", field: $0[text: "field"] ?? "", by: $0[text: "by"] ?? "appVersion") }

    /// `top --event E --by K --limit N` (no endpoint).
    public static let top = ReportDefinition(
        name: "top", abstract: "Counts of an event per user or property, most frequent first.", endpoint: nil,
        parameters: [
            .init(name: "event", kind: .text(required: true, default: nil), description: "The event name, such as api_request_failed."),
            .init(name: "by", kind: .text(required: false, default: "userId"), description: "userId, sessionId, platform, appVersion or a property name."),
            .init(name: "limit", kind: .integer(1...Int.max, default: 10), description: "How many rows."),
        ]) { .top(event: $0[text: "event"] ?? "", by: $0[text: "by"] ?? "userId", limit: $0[int: "limit"]) }

    /// `retention --days N`, `GET /learning/retention?days=N` (docs/decisions.md): for each local
    /// date D of the window ending today, the users active (any reading event) on D and the share
    /// of them active again on D+1, D+7 and D+30; a share is null while its day is after today,
    /// or when D had no users. From saved query `retention` in the backend's dialect.
    public static let retention = ReportDefinition(
        name: "retention", abstract: "Of the users active on each of the last N days, the share back 1, 7 and 30 days later.",
        endpoint: .init(path: "/learning/retention", operationId: "retention",
                        summary: "Per cohort day of the last N days: the users active that day, and the share active again on day 1, 7 and 30.",
                        schema: "Rows"),
        parameters: [.init(name: "days", kind: .days(default: 30), description: "The window's length in days.")]) { backend, context, arguments in
            let today = try backend.localToday(context)
            let window = ReportLogic.window(days: arguments[int: "days"], endingAt: today)
            var counts: [LocalDate: [Int64]] = [:]
            let parameters: [String: QueryValue] = ["user": QueryValue(context.user), "first": .text(window[0].description), "last": .text(today.description)]
            for row in try backend.savedRows("retention", parameters: parameters) {
                guard case .text(let text) = row[0], let date = LocalDate(iso: text) else { continue }
                counts[date] = row.dropFirst().map(count)
            }
            let rows = window.map { date -> [ReportValue] in
                let count = counts[date] ?? [0, 0, 0, 0]
                func share(after offset: Int, _ retained: Int64) -> ReportValue {
                    guard count[0] > 0, date.adding(days: offset) <= today else { return .null }
                    return .double(Double(retained) / Double(count[0]))
                }
                return [.text(date.description), .int(count[0]), share(after: 1, count[1]), share(after: 7, count[2]), share(after: 30, count[3])]
            }
            let columns = [ReportColumn("date", role: .key), ReportColumn("users", role: .count),
                           ReportColumn("day1", role: .ratio), ReportColumn("day7", role: .ratio), ReportColumn("day30", role: .ratio)]
            return GroupedReport(columns: columns, rows: rows)
        }
}

// MARK: - The generic path

extension ReportCatalog {
    /// The report `name` (one defined with `rows`) computed over `backend` in `context`, its
    /// arguments checked first.
    ///
    /// - Throws: `QueryError.invalidParameter` for an argument out of range, or for a name no
    ///   report of the generic path has; the backend's errors.
    public static func report(_ name: String, on backend: any ReportBackend, context: ReportContext,
                              arguments: ReportDefinition.Arguments) throws -> GroupedReport {
        guard let definition = named(name), let rows = definition.rows else {
            throw QueryError.invalidParameter(name: "report", message: "no report named \(name) is answered from its rows")
        }
        try definition.validate(arguments)
        return try rows(backend, context, arguments)
    }

    // MARK: - Feed parameters

    /// `positionBuckets`, of `dislike-rate` and `compare`.
    static let positionBuckets = ReportDefinition.Parameter(
        name: "positionBuckets", kind: .pattern(bucketsPattern, check: { _ = try DislikeGrouping.buckets($0) }),
        description: "Feed positions grouped into ranges, such as 0-4,5-9,10-.",
        help: "Group positions into ranges, such as 0-4,5-9,10-.", valueName: "ranges")

    /// `compare`'s `by`: grouped by model, and perhaps by position too.
    static let compareBy: ReportDefinition.Parameter.Check = { text in
        guard try DislikeGrouping(by: text).byModel else {
            throw QueryError.invalidParameter(name: "by", message: "by must be model or model,position, got \"\(text)\"")
        }
    }

    /// What a local date looks like (`FeedFilter.parse` checks that it is a calendar date); empty
    /// counts as absent.
    static let datePattern = "^([0-9]{4}-[0-9]{2}-[0-9]{2})?$"

    /// The event filters of the feed reports (`metrics.md`): `from`, `to`, `platform`, `appVersion`.
    static let feedFilters: [ReportDefinition.Parameter] = [
        .init(name: "from", kind: .pattern(datePattern, check: { _ = try FeedFilter.parse(from: $0, to: nil, platform: nil, appVersion: nil) }),
              description: "Only the events of this local date or later (YYYY-MM-DD).", valueName: "YYYY-MM-DD"),
        .init(name: "to", kind: .pattern(datePattern, check: { _ = try FeedFilter.parse(from: nil, to: $0, platform: nil, appVersion: nil) }),
              description: "Only the events of this local date or earlier (YYYY-MM-DD).", valueName: "YYYY-MM-DD"),
        .init(name: "platform", kind: .text(required: false, default: nil), description: "Only the events of this platform, such as ios."),
        .init(name: "appVersion", kind: .text(required: false, default: nil), description: "Only the events of this app version, such as 3.1.0."),
    ]

    /// The position buckets of `arguments`, none when absent.
    static func buckets(_ arguments: ReportDefinition.Arguments) throws -> [DislikeGrouping.Bucket] {
        try arguments[text: "positionBuckets"].map(DislikeGrouping.buckets) ?? []
    }

    /// The event filter of `arguments`.
    static func feedFilter(_ arguments: ReportDefinition.Arguments) throws -> FeedFilter {
        try FeedFilter.parse(from: arguments[text: "from"], to: arguments[text: "to"],
                       platform: arguments[text: "platform"], appVersion: arguments[text: "appVersion"])
    }

    /// A count as SQL gives it back: an integer, or its text (ClickHouse's 64-bit integers).
    static func count(_ value: ReportValue) -> Int64 {
        switch value {
        case .int(let v): v
        case .double(let v): Int64(exactly: v) ?? 0
        case .text(let v): Int64(v) ?? 0
        case .null, .json: 0
        }
    }
}
