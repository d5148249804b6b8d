import ArgumentParser
import TallyQuery

/// `--param name=value`: an integer-looking value binds as INTEGER, a decimal as REAL, anything else as TEXT.
struct QueryParameter: ExpressibleByArgument {
    var name: String
    var value: QueryValue

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else { return nil }
        name = String(argument[..<equals])
        let text = String(argument[argument.index(after: equals)...])
        if let int = Int64(text) {
            value = .int(int)
        } else if let double = Double(text), double.isFinite {
            value = .double(double)
        } else {
            value = .text(text)
        }
    }

    /// The parameters as the query layer takes them.
    static func dictionary(_ parameters: [QueryParameter]) -> [String: QueryValue] {
        Dictionary(parameters.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }
}
