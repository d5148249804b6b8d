import Foundation

/// The SQLite store's file, where `--db` is not given: `$TALLY_DB`, else `./tally.sqlite`. The
/// reports, `ingest` and `serve` all take it from here.
enum StoreFile {
    /// The default as `--help` names it.
    static let defaultHelp = "$TALLY_DB, else ./tally.sqlite"

    /// `db` when given, else `$TALLY_DB`, else `tally.sqlite` in the working folder.
    static func path(_ db: String?) -> String {
        db ?? ProcessInfo.processInfo.environment["TALLY_DB"] ?? "tally.sqlite"
    }
}
