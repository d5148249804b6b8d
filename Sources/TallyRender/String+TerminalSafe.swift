extension String {
    /// The string with its control characters and line or paragraph separators written as escapes
    /// (`\n`, `\t`, `\u{1B}`, `\u{2028}`), so that a value can neither break a table's lines nor
    /// send escape codes to the terminal.
    var terminalSafe: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where [.control, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
