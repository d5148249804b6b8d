/// Where an input record came from, for messages and for the `rejected_lines` table.
public struct RecordOrigin: Sendable, Equatable {
    /// The file as named on the command line (`-` for stdin), or a request's label.
    public var file: String
    /// The 1-based line where the record starts.
    public var line: Int
    /// The 0-based position in a batch array, for batch files.
    public var element: Int?

    /// Creates an origin.
    public init(file: String, line: Int, element: Int? = nil) {
        self.file = file
        self.line = line
        self.element = element
    }

    /// `file:line` or `file:line (event #element)`.
    public var label: String {
        element.map { "\(file):\(line) (event #\($0))" } ?? "\(file):\(line)"
    }
}
