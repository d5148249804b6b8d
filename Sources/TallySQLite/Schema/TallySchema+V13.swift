extension TallySchema {
    /// Version 13: each family of `StateRuns` remembers how far a sweep over its keys has moved
    /// recent rows into the settled run (`swept_first`, `swept_second`; NULL: from the start).
    ///
    /// A settling moved the whole recent run in one pass over the settled tables, so the commit
    /// that made a family due paid for every row it had gathered since its last settling (about
    /// 2.8 s of a 1M-event load of 9 users, when the recent run had grown as large as the settled
    /// one). A commit now moves only the rows above the run's bound, the next ones in key order
    /// after the sweep's position, and a settling costs what the commits since the last added.
    static let v13 = """
    ALTER TABLE state_runs ADD COLUMN swept_first TEXT;
    ALTER TABLE state_runs ADD COLUMN swept_second TEXT;
    """
}
