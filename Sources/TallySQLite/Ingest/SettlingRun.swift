/// A recent run of rows written at random that a commit moves into its settled run in key order
/// (`KeyRuns`, `StateRuns`). A commit settles at most one of the runs that are due, the most
/// overdue (`Ingestor.commit`): their settlings, each a pass over a settled run, then fall on
/// different commits instead of adding up in one.
protocol SettlingRun: AnyObject {
    /// How far past due the recent run is: its size over the size that makes it due (at least 1
    /// when due), or nil when it is not due.
    func overdue() throws -> Double?

    /// Moves the recent run into the settled one, in the commit's transaction.
    func settle() throws
}

extension Array where Element == any SettlingRun {
    /// Settles the most overdue run, if any is due.
    func settleMostOverdue() throws {
        var most: (run: any SettlingRun, overdue: Double)?
        for run in self {
            if let overdue = try run.overdue(), overdue > most?.overdue ?? 0 {
                most = (run, overdue)
            }
        }
        try most?.run.settle()
    }
}
