/// An ANSI SGR style (bold, a 256-color foreground), applied only when color is asked for.
struct ANSIStyle: Sendable {
    /// The SGR parameters, e.g. `1` or `38;5;34`.
    let parameters: String

    /// Bold text: table headers.
    static let bold = ANSIStyle(parameters: "1")

    /// A foreground color of the 256-color palette.
    static func color256(_ index: Int) -> ANSIStyle {
        ANSIStyle(parameters: "38;5;\(index)")
    }

    /// `text` wrapped in this style and a reset.
    func apply(_ text: String) -> String {
        "\u{1B}[\(parameters)m\(text)\u{1B}[0m"
    }
}
