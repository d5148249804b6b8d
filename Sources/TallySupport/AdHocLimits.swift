/// How large an ad hoc statement's values and result may grow (`--sql-max-bytes`,
/// `--sql-max-rows`): a statement past either stops with `StatementInterrupted`. A time limit
/// alone cannot bound a statement, as one step (an `upper()` of a long string) may take seconds
/// and gigabytes.
public struct AdHocLimits: Sendable, Equatable {
    /// The default `--sql-max-bytes`: 32 MiB.
    public static let defaultMaxBytes = 32 << 20
    /// The default `--sql-max-rows`.
    public static let defaultMaxRows = 1_000_000

    /// The most bytes one value may hold while the statement runs, and the result's values in
    /// all (text and blobs by their length, numbers as 8 bytes); nil for no limit.
    public var maxBytes: Int?
    /// The most rows a result may have; nil for no limit.
    public var maxRows: Int?

    /// No limits, for the saved queries the program runs itself.
    public static let none = AdHocLimits(maxBytes: nil, maxRows: nil)

    /// Limits of `maxBytes` and `maxRows` (nil: none).
    public init(maxBytes: Int? = AdHocLimits.defaultMaxBytes, maxRows: Int? = AdHocLimits.defaultMaxRows) {
        self.maxBytes = maxBytes
        self.maxRows = maxRows
    }
}
