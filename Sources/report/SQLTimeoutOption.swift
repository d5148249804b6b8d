import ArgumentParser
import TallySupport

/// `--sql-timeout`, `--sql-max-bytes`, `--sql-max-rows`: how long one ad hoc statement
/// (`report sql`, `report query`, `GET /sql`) may run and how large its values and result may grow.
struct SQLTimeoutOption: ParsableArguments {
    /// The default limit, in seconds.
    static let defaultSeconds = 5.0

    @Option(name: .customLong("sql-timeout"), help: ArgumentHelp("The longest one ad hoc statement may run, in seconds; 0 for no limit.", valueName: "seconds"))
    var seconds = SQLTimeoutOption.defaultSeconds

    @Option(name: .customLong("sql-max-bytes"), help: ArgumentHelp(
        "The most bytes one value of an ad hoc statement, or its result in all, may hold; 0 for no limit.", valueName: "bytes"))
    var maxBytes = AdHocLimits.defaultMaxBytes

    @Option(name: .customLong("sql-max-rows"), help: ArgumentHelp("The most rows an ad hoc result may have; 0 for no limit.", valueName: "rows"))
    var maxRows = AdHocLimits.defaultMaxRows

    func validate() throws {
        // SQLite's own ceiling on a value is 2^31 - 1 bytes.
        guard maxBytes >= 0, maxBytes <= Int(Int32.max) else {
            throw ValidationError("--sql-max-bytes must be 0 (no limit) to \(Int32.max), got \(maxBytes).")
        }
        guard maxRows >= 0 else { throw ValidationError("--sql-max-rows must be 0 (no limit) or more, got \(maxRows).") }
        guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw ValidationError("--sql-timeout must be 0 (no limit) to 86400 seconds, got \(seconds).")
        }
    }

    /// The limit; nil for none.
    var limit: Duration? {
        seconds == 0 ? nil : .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// The size limits.
    var limits: AdHocLimits {
        AdHocLimits(maxBytes: maxBytes == 0 ? nil : maxBytes, maxRows: maxRows == 0 ? nil : maxRows)
    }

    /// An interrupter for one statement under the limits.
    func interrupter() -> StatementInterrupter {
        StatementInterrupter(timeLimit: limit, limits: limits)
    }
}
