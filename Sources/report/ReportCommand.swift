import ArgumentParser
import TallyQuery
import TallyRender

/// A subcommand that asks one report of `ReportCatalog`: `report NAME` with the definition's
/// abstract, the options every report takes, and one flag per parameter (an argument for a path
/// parameter) whose help comes from the definition. The definition reads and checks the flags'
/// values (`ReportDefinition.arguments(_:)`), as the server reads its query string.
protocol ReportCommand: ParsableCommand {
    /// The report asked.
    static var definition: ReportDefinition { get }

    /// The options every report takes.
    var options: ReportOptions { get }

    /// The value of each parameter's flag, by parameter name; nil for an optional flag not given.
    var values: [String: String?] { get }

    /// The first day of the calendar's weeks, for the reports that draw one.
    var weekStart: WeekStart { get }
}

extension ReportCommand {
    /// `report NAME`, with the definition's abstract.
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: definition.name, abstract: definition.abstract)
    }

    /// No flags but the options.
    var values: [String: String?] { [:] }

    /// Weeks start on Sunday.
    var weekStart: WeekStart { .sunday }

    /// The help of the flag of parameter `name`: its line, and the range of a `days` parameter
    /// (ArgumentParser adds the default, the property's).
    static func help(_ name: String) -> ArgumentHelp {
        let parameter = parameter(name)
        var text = parameter.help
        if case .days = parameter.kind, let range = parameter.range {
            text = "\(text.dropLast(text.hasSuffix(".") ? 1 : 0)), \(range.lowerBound)...\(range.upperBound)."
        }
        return ArgumentHelp(text, valueName: parameter.valueName)
    }

    /// The default of the `days` or integer parameter `name`, for its flag's property.
    static func defaultInteger(_ name: String) -> Int {
        switch parameter(name).kind {
        case .days(let value), .integer(_, let value): value
        case .choice, .text, .pattern, .path: preconditionFailure("\(name) of report \(definition.name) is not an integer")
        }
    }

    /// The default of the choice or text parameter `name`, for its flag's property.
    static func defaultText(_ name: String) -> String {
        switch parameter(name).kind {
        case .choice(_, let value, _), .text(_, .some(let value)): value
        case .days, .integer, .text(_, .none), .pattern, .path: preconditionFailure("\(name) of report \(definition.name) has no default text")
        }
    }

    /// The definition's parameter `name`.
    private static func parameter(_ name: String) -> ReportDefinition.Parameter {
        guard let parameter = definition.parameters.first(where: { $0.name == name }) else {
            preconditionFailure("report \(definition.name) has no parameter \(name)")
        }
        return parameter
    }

    /// The flag of parameter `name`, as ArgumentParser names a property: `topReasons`,
    /// `--top-reasons`.
    static func flag(_ name: String) -> String {
        "--" + name.reduce(into: "") { $0 += $1.isUppercase ? "-" + $1.lowercased() : String($1) }
    }

    /// The report's arguments: the flags' values read and checked by the definition.
    ///
    /// - Throws: `ValidationError` naming the flag, with the message the server answers.
    func arguments() throws -> ReportDefinition.Arguments {
        do {
            return try Self.definition.arguments(values.compactMapValues { $0 })
        } catch QueryError.invalidParameter(let name, let message) {
            throw ValidationError("\(Self.flag(name)): \(message).")
        }
    }

    /// Refuses a flag value the definition does not take, before anything is read.
    func validate() throws {
        _ = try arguments()
    }

    /// Prints the report asked by the flags.
    func run() throws {
        Terminal.write(try options.answer(try Self.definition.question(try arguments()), weekStart: weekStart))
    }
}
