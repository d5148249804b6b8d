import ArgumentParser
import TallySupport

/// `--sql-timeout`: how long one ad hoc statement (`report sql`, `report query`, `GET /sql`) may run.
struct SQLTimeoutOption: ParsableArguments {
    /// The default limit, in seconds.
    static let defaultSeconds = 5.0

    @Option(name: .customLong("sql-timeout"), help: ArgumentHelp("The longest one ad hoc statement may run, in seconds; 0 for no limit.", valueName: "seconds"))
    var seconds = SQLTimeoutOption.defaultSeconds

    func validate() throws {
        guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw ValidationError("--sql-timeout must be 0 (no limit) to 86400 seconds, got \(seconds).")
        }
    }

    /// The limit; nil for none.
    var limit: Duration? {
        seconds == 0 ? nil : .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// An interrupter for one statement under the limit.
    func interrupter() -> StatementInterrupter {
        StatementInterrupter(timeLimit: limit)
    }
}
