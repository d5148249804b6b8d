import TallyEvents

/// One report, defined once: its subcommand's name and abstract, its endpoint, its typed
/// parameters with their defaults and checks, and how its question is built from their values.
/// The server's routes and their methods and the OpenAPI document are read from
/// `ReportCatalog.all`; each report's subcommand takes its name, abstract and flags' help from
/// its definition, and the CLI and the server both read the parameters with `arguments(_:)`.
///
/// A report defined with `rows` is answered through the generic path: its question is
/// `.catalog(name:arguments:)`, its answer the rows `rows` computes over the backend's saved
/// queries (`docs/contributing.md`).
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
        /// A check of a text value: returns when the value is taken, else throws
        /// `QueryError.invalidParameter` with the message that says what is taken.
        public typealias Check = @Sendable (String) throws -> Void

        /// What values a parameter takes, and its default.
        public enum Kind: Sendable {
            /// A window length in days, in `dayRange`.
            case days(default: Int)
            /// An integer in a range.
            case integer(ClosedRange<Int>, default: Int)
            /// One of the listed values (the OpenAPI enum), as `check` takes them: it throws the
            /// message that names them.
            case choice([String], default: String, check: Check)
            /// Text; an empty value counts as absent. Required, or else `default`.
            case text(required: Bool, default: String?)
            /// Optional text that `check` takes, throwing the message that says why not; the
            /// pattern (the OpenAPI schema's) matches every value `check` takes.
            case pattern(String, check: Check)
            /// A path segment.
            case path

            /// The values a `days` parameter takes (`ReportLogic.validate(days:)`).
            public static let dayRange = 1...3660
        }

        /// The name in the query string (or path) and the OpenAPI document; the CLI's flag is
        /// this name in kebab case (`topReasons`, `--top-reasons`).
        public let name: String
        /// What values it takes.
        public let kind: Kind
        /// The OpenAPI description.
        public let description: String
        /// The line its flag (or argument) shows in `report NAME --help`, before the range of a
        /// `days` parameter and the default, which the CLI adds.
        public let help: String
        /// The flag's value name in `report NAME --help`, when it is not the parameter's name.
        public let valueName: String?

        /// A parameter; its flag's help line is `description` unless `help` is given.
        init(name: String, kind: Kind, description: String, help: String? = nil, valueName: String? = nil) {
            self.name = name
            self.kind = kind
            self.description = description
            self.help = help ?? description
            self.valueName = valueName
        }

        /// Whether it is a path segment rather than a query parameter.
        public var isPath: Bool {
            if case .path = kind { return true }
            return false
        }

        /// The values a `days` or integer parameter takes; nil for the other kinds.
        public var range: ClosedRange<Int>? {
            switch kind {
            case .days: Kind.dayRange
            case .integer(let range, _): range
            case .choice, .text, .pattern, .path: nil
            }
        }

        /// The value of a `days` or integer parameter written as `text`, checked against its range.
        ///
        /// - Throws: `QueryError.invalidParameter` when `text` is not an integer of the range.
        func integer(_ text: String) throws -> Int {
            guard let range else { preconditionFailure("\(name) is not a days or integer parameter") }
            let expected = range.upperBound == .max ? "an integer of at least \(range.lowerBound)" : "an integer from \(range.lowerBound) to \(range.upperBound)"
            let invalid = QueryError.invalidParameter(name: name, message: "\(name) must be \(expected), got \(JSONText.quote(text))")
            guard let value = Int(text) else { throw invalid }
            if case .days = kind { try ReportLogic.validate(days: value) }
            guard range.contains(value) else { throw invalid }
            return value
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
            case .choice(_, let value, _): arguments[text: parameter.name] = value
            case .text(_, let value): arguments[text: parameter.name] = value
            case .pattern, .path: break
            }
        }
        return arguments
    }

    /// The values of the parameters, read from what each flag or query-string item holds
    /// (`values[name]`, absent when it is not given) and checked as its kind says: the one step
    /// in which `report NAME` and the server both read a report's parameters. An absent
    /// parameter takes its default, and so does a text parameter given empty.
    ///
    /// - Throws: `QueryError.invalidParameter` naming the first parameter whose value its kind
    ///   does not take, with the message the server answers and the CLI prints after the flag.
    public func arguments(_ values: [String: String]) throws -> Arguments {
        var arguments = defaultArguments
        for parameter in parameters {
            let name = parameter.name, value = values[name]
            do {
                switch parameter.kind {
                case .days, .integer:
                    if let value { arguments[int: name] = try parameter.integer(value) }
                case .choice(_, _, let check), .pattern(_, let check):
                    if let value {
                        try check(value)
                        arguments[text: name] = value
                    }
                case .text(let required, _):
                    if let value, !value.isEmpty {
                        arguments[text: name] = value
                    } else if required {
                        throw QueryError.invalidParameter(name: name, message: "\(name) is required")
                    }
                case .path:
                    arguments[text: name] = value
                }
            } catch QueryError.invalidParameter(_, let message) {
                throw QueryError.invalidParameter(name: name, message: message)
            }
        }
        return arguments
    }

    /// Checks the values of the parameters that have a range (`days`, an integer).
    ///
    /// - Throws: `QueryError.invalidParameter` naming the first value out of range.
    public func validate(_ arguments: Arguments) throws {
        for parameter in parameters where parameter.range != nil {
            _ = try parameter.integer(String(arguments[int: parameter.name]))
        }
    }

    /// The names of the parameters read from the query string.
    public var queryParameters: Set<String> {
        Set(parameters.filter { !$0.isPath }.map(\.name))
    }
}
