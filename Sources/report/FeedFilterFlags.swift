import ArgumentParser

/// The event filters of the feed reports (`dislike-rate`, `exposures`, `compare`): `--from`,
/// `--to`, `--platform` and `--app-version`, with the help of `Command`'s definition, whose
/// parameters `from`, `to`, `platform` and `appVersion` read and check them.
struct FeedFilterFlags<Command: ReportCommand>: ParsableArguments {
    @Option(help: Command.help("from"))
    var from: String?

    @Option(help: Command.help("to"))
    var to: String?

    @Option(help: Command.help("platform"))
    var platform: String?

    @Option(help: Command.help("appVersion"))
    var appVersion: String?

    /// The flags' values, by parameter name.
    var values: [String: String?] { ["from": from, "to": to, "platform": platform, "appVersion": appVersion] }
}
