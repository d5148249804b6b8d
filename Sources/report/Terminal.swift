import Foundation
import TallyRender

/// What the process is attached to: decides color and progress output.
enum Terminal {
    /// Whether standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard error is a terminal.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Colors for tables on a terminal, unless `NO_COLOR` is set (https://no-color.org).
    static func wantsColor(format: OutputFormat) -> Bool {
        format == .table && stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// Writes to standard output.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes to standard error.
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
