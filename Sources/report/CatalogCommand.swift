import ArgumentParser
import TallyQuery
import TallyRender

/// The subcommand of the report at position `Position.index` of `ReportCatalog.all` when that
/// report is answered through the generic path (defined with `rows`): its name, abstract and flags
/// all come from the definition, so a new report needs no command of its own. ArgumentParser needs
/// a type per subcommand, hence one instance of this type per position of the catalog
/// (`CatalogPosition.commands(count:)`).
struct CatalogCommand<Position: CatalogPosition>: ReportCommand {
    static var definition: ReportDefinition { ReportCatalog.all[Position.index] }

    @OptionGroup var options: ReportOptions

    @OptionGroup var parameters: CatalogParameters<Position>

    func validate() throws {
        try ValidationError.wrapping { try Self.definition.validate(parameters.arguments) }
    }

    func run() throws {
        Terminal.write(try options.answer(try Self.definition.question(parameters.arguments)))
    }
}

/// The flags of the report at position `Position.index` of `ReportCatalog.all`, one per parameter
/// of its definition: `--NAME` (an argument for a path parameter), with the parameter's default.
///
/// ArgumentParser finds a type's flags by reflecting an instance of it; this type reflects as
/// the flags its definition lists and decodes their values by the same names.
struct CatalogParameters<Position: CatalogPosition>: ParsableArguments, CustomReflectable {
    /// The values given (or defaulted), by parameter name.
    private(set) var arguments = ReportDefinition.Arguments()

    private static var parameters: [ReportDefinition.Parameter] { ReportCatalog.all[Position.index].parameters }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Name.self)
        for parameter in Self.parameters {
            let key = Name(parameter.name)
            switch parameter.kind {
            case .days, .integer:
                arguments[int: parameter.name] = try container.decode(Option<Int>.self, forKey: key).wrappedValue
            case .choice, .text(_, .some), .text(true, .none):
                arguments[text: parameter.name] = try container.decode(Option<String>.self, forKey: key).wrappedValue
            case .text(false, .none), .pattern, .date:
                arguments[text: parameter.name] = try container.decode(Option<String?>.self, forKey: key).wrappedValue
            case .path:
                arguments[text: parameter.name] = try container.decode(Argument<String>.self, forKey: key).wrappedValue
            }
        }
    }

    /// One child per parameter, named as a property wrapper is (`_days`), holding its flag.
    var customMirror: Mirror {
        Mirror(self, children: Self.parameters.map { (label: "_" + $0.name, value: Self.flag($0)) }, displayStyle: .struct)
    }

    /// The flag of `parameter`, with its default and its help line.
    private static func flag(_ parameter: ReportDefinition.Parameter) -> Any {
        switch parameter.kind {
        case .days(let value):
            Option(wrappedValue: value, help: ArgumentHelp("\(parameter.description.dropLast(parameter.description.hasSuffix(".") ? 1 : 0)), 1...3660."))
        case .integer(_, let value):
            Option(wrappedValue: value, help: ArgumentHelp(parameter.description))
        case .choice(let values, let value):
            Option(wrappedValue: value, help: ArgumentHelp("\(parameter.description) One of \(values.joined(separator: ", "))."))
        case .text(_, .some(let value)):
            Option(wrappedValue: value, help: ArgumentHelp(parameter.description))
        case .text(true, .none):
            Option<String>(help: ArgumentHelp(parameter.description))
        case .text(false, .none), .pattern, .date:
            Option<String?>(help: ArgumentHelp(parameter.description))
        case .path:
            Argument<String>(help: ArgumentHelp(parameter.description))
        }
    }

    /// A parameter's name as a coding key.
    private struct Name: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

// MARK: - Positions as types

/// A position of `ReportCatalog.all` as a type: `FirstPosition`, `NextPosition<FirstPosition>`,
/// and so on, so that each generic subcommand is a type of its own whatever the catalog's size.
protocol CatalogPosition {
    /// The position in `ReportCatalog.all`.
    static var index: Int { get }
}

extension CatalogPosition {
    /// The generic subcommands of this position and the `count - 1` after it.
    static func commands(count: Int) -> [any ReportCommand.Type] {
        count <= 0 ? [] : [CatalogCommand<Self>.self] + NextPosition<Self>.commands(count: count - 1)
    }
}

/// Position 0 of the catalog.
enum FirstPosition: CatalogPosition {
    static var index: Int { 0 }
}

/// The position after `Previous`.
enum NextPosition<Previous: CatalogPosition>: CatalogPosition {
    static var index: Int { Previous.index + 1 }
}
