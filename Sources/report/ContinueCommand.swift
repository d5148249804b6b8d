import ArgumentParser

/// `report continue`: the material to pick up again.
struct ContinueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "continue", abstract: "The most recently read material not yet marked as read.")

    @OptionGroup var options: ReportOptions

    func run() throws {
        Terminal.write(try options.answer(.continueLearning))
    }
}
