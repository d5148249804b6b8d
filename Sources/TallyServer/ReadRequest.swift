import TallyEvents
import TallyQuery
import TallyRender

/// A GET endpoint's question and context, read and checked from its path and query string.
struct ReadRequest: Sendable {
    /// What is asked.
    var question: ReportQuestion
    /// Whose events, when "now" is, which zone.
    var context: ReportContext
    /// Whether `now=` was given; without it the answer follows the clock.
    var nowGiven: Bool
    /// The request's path and query string, which name the answer in the cache.
    var key: String

    /// The parameters every report takes.
    static let contextParameters: Set<String> = ["user", "now", "tz"]

    /// The longest `user=` accepted, in characters.
    static let maxUserLength = 1000

    /// Reads `user`, `now` and `tz` (the clock's `nowMs` when `now` is absent), refusing any
    /// parameter outside `contextParameters` and `extra`; `question` builds the question from
    /// the rest.
    init(path: String, query: String?, extra: Set<String> = [], nowMs: () -> Int64,
         question: (QueryParameters) throws -> ReportQuestion) throws {
        let parameters = try QueryParameters(query)
        try parameters.requireOnly(Self.contextParameters.union(extra))
        let user = try parameters.value("user")
        if let user {
            guard user.unicodeScalars.count <= Self.maxUserLength else {
                throw APIError.invalidParameter("user must be at most \(Self.maxUserLength) characters, got \(user.unicodeScalars.count).")
            }
            guard !user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw APIError.invalidParameter("user must not contain control characters.")
            }
        }
        let now = try parameters.value("now")
        var nowValue: Int64?
        if let now {
            guard let parsed = Instant.parse(nowArgument: now) else {
                throw APIError.invalidParameter("now must be an ISO-8601 instant (2026-11-20T12:00:00Z) or milliseconds since the epoch, got \(JSONText.quote(now)).")
            }
            nowValue = parsed
        }
        var offset: Int?
        if let tz = try parameters.value("tz") {
            guard let minutes = UTCOffset.minutes(tz) else {
                throw APIError.invalidParameter("tz must be an offset from -12:00 to +14:00 such as +08:00, got \(JSONText.quote(tz)).")
            }
            offset = minutes
        }
        self.question = try question(parameters)
        context = ReportContext(user: user, nowMs: nowValue ?? nowMs(), timezoneOffsetMinutes: offset)
        nowGiven = nowValue != nil
        key = query.map { path + "?" + $0 } ?? path
    }

    /// The values of `definition`'s parameters: its query parameters from `query` (each given
    /// at most once) and its path parameters from `path`, read and checked by the definition as
    /// `report NAME` reads its flags.
    static func arguments(of definition: ReportDefinition, query: QueryParameters, path: [String: String]) throws -> ReportDefinition.Arguments {
        var values = path
        for parameter in definition.parameters where !parameter.isPath {
            values[parameter.name] = try query.value(parameter.name)
        }
        return try definition.arguments(values)
    }

    /// A required text parameter (`q=` of `GET /sql`): present and not empty.
    static func required(_ parameters: QueryParameters, _ name: String) throws -> String {
        guard let value = try parameters.value(name), !value.isEmpty else {
            throw APIError.invalidParameter("\(name) is required.")
        }
        return value
    }
}
