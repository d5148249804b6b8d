/// One report, defined once: its subcommand and endpoint, its typed parameters, and how its
/// question is built from their values. `report`'s subcommands and `--help`, the server's routes
/// and their methods, and the OpenAPI document are all read from `ReportCatalog.all`.
///
/// A report defined with `rows` is answered through the generic path: its question is
/// `.catalog(name:arguments:)`, its answer the rows `rows` computes over the backend's saved
/// queries, and its subcommand's flags are its parameters (`docs/contributing.md`).
public struct ReportDefinition: Sendable {
    /// The subcommand, `report NAME`.
    public let name: String
    /// The line `report --help` and `report NAME --help` show.
    public let abstract: String
    /// The HTTP endpoint, when the report has one.
    public let endpoint: Endpoint?
    /// The parameters besides `user`, `now` and `tz` (which every report takes), in the order
    /// the API documents them.
    public let parameters: [Parameter]
    /// The question asked, from the parameters' values.
    public let question: @Sendable (Arguments) throws -> ReportQuestion
    /// The report computed from the parameters' values over a backend, for a report answered
    /// through the generic path; nil for a report with a question of its own.
    public let rows: (@Sendable (any ReportBackend, ReportContext, Arguments) throws -> GroupedReport)?

    /// A report with a question of its own (a case of `ReportQuestion`).
    init(name: String, abstract: String, endpoint: Endpoint?, parameters: [Parameter],
         question: @escaping @Sendable (Arguments) throws -> ReportQuestion) {
        self.name = name
        self.abstract = abstract
        self.endpoint = endpoint
        self.parameters = parameters
        self.question = question
        self.rows = nil
    }

    /// A report answered through the generic path: the question `.catalog(name:arguments:)`,
    /// answered with what `rows` computes from the backend (usually from `savedRows`, one saved
    /// query per dialect).
    init(name: String, abstract: String, endpoint: Endpoint?, parameters: [Parameter],
         rows: @escaping @Sendable (any ReportBackend, ReportContext, Arguments) throws -> GroupedReport) {
        self.name = name
        self.abstract = abstract
        self.endpoint = endpoint
        self.parameters = parameters
        self.question = { .catalog(name: name, arguments: $0) }
        self.rows = rows
    }

    /// A report's HTTP endpoint: `GET path`.
    public struct Endpoint: Sendable {
        /// The path, `{name}` for a path parameter.
        public let path: String
        /// The OpenAPI operationId.
        public let operationId: String
        /// The OpenAPI summary (and the 200 answer's description).
        public let summary: String
        /// The OpenAPI schema of the 200 answer, in `components/schemas`.
        public let schema: String
        /// What a 404 answer means, for an endpoint that gives one (`QueryError.notFound`).
        public var notFound: String? = nil
    }

    /// A typed parameter of a report.
    public struct Parameter: Sendable {
        /// What values a parameter takes, and its default.
        public enum Kind: Sendable {
            /// A window length in days, 1...3660.
            case days(default: Int)
            /// An integer in a range.
            case integer(ClosedRange<Int>, default: Int)
            /// One of the listed values (checked by the report, which names them in its message).
            case choice([String], default: String)
            /// Text; an empty value counts as absent. Required, or else `default`.
            case text(required: Bool, default: String?)
            /// Optional text of this pattern (checked by the report).
            case pattern(String)
            /// An optional local date, `YYYY-MM-DD` (checked by the report).
            case date
            /// A path segment.
            case path
        }

        /// The name in the query string (or path) and the OpenAPI document.
        public let name: String
        /// What values it takes.
        public let kind: Kind
        /// The OpenAPI description.
        public let description: String

        /// Whether it is a path segment rather than a query parameter.
        public var isPath: Bool {
            if case .path = kind { return true }
            return false
        }
    }

    /// The values of a report's parameters, read and checked by the CLI or the server.
    public struct Arguments: Sendable, Equatable {
        private var integers: [String: Int] = [:]
        private var texts: [String: String] = [:]

        /// No values.
        public init() {}

        /// An integer parameter's value (0 when absent).
        public subscript(int name: String) -> Int {
            get { integers[name] ?? 0 }
            set { integers[name] = newValue }
        }

        /// A text parameter's value, nil when absent.
        public subscript(text name: String) -> String? {
            get { texts[name] }
            set { texts[name] = newValue }
        }
    }

    /// Each parameter at its default (text without one absent): what the report answers when
    /// asked with no flags.
    public var defaultArguments: Arguments {
        var arguments = Arguments()
        for parameter in parameters {
            switch parameter.kind {
            case .days(let value), .integer(_, let value): arguments[int: parameter.name] = value
            case .choice(_, let value): arguments[text: parameter.name] = value
            case .text(_, let value): arguments[text: parameter.name] = value
            case .pattern, .date, .path: break
            }
        }
        return arguments
    }

    /// Checks the values of the parameters that have a range (`days`, an integer).
    ///
    /// - Throws: `QueryError.invalidParameter` naming the first value out of range.
    public func validate(_ arguments: Arguments) throws {
        for parameter in parameters {
            switch parameter.kind {
            case .days:
                try ReportLogic.validate(days: arguments[int: parameter.name])
            case .integer(let range, _):
                let value = arguments[int: parameter.name]
                guard range.contains(value) else {
                    throw QueryError.invalidParameter(name: parameter.name, message: "\(parameter.name) must be \(range.lowerBound)...\(range.upperBound), got \(value)")
                }
            case .choice, .text, .pattern, .date, .path: break
            }
        }
    }

    /// The names of the parameters read from the query string.
    public var queryParameters: Set<String> {
        Set(parameters.filter { !$0.isPath }.map(\.name))
    }
}
