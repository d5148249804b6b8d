import ArgumentParser
import TallyQuery

/// The event filters of the feed reports (`dislike-rate`, `exposures`): `--from`, `--to`,
/// `--platform`, `--app-version`, read as the server reads `from`, `to`, `platform` and
/// `appVersion` (`FeedFilter.parse`).
struct FeedFilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only the events of this local date or later.", valueName: "YYYY-MM-DD"))
    var from: String?

    @Option(help: ArgumentHelp("Only the events of this local date or earlier.", valueName: "YYYY-MM-DD"))
    var to: String?

    @Option(help: "Only the events of this platform, such as ios.")
    var platform: String?

    @Option(help: "Only the events of this app version, such as 3.1.0.")
    var appVersion: String?

    func validate() throws {
        _ = try filter()
    }

    /// The filter, its dates checked; an error names the flag.
    func filter() throws -> FeedFilter {
        try ValidationError.wrapping { try FeedFilter.parse(from: from, to: to, platform: platform, appVersion: appVersion) }
    }
}
