/// What a refresh changed in a ``Feed``.
public struct FeedUpdate: Sendable, Equatable {
    /// The changes to the sections (a collection view's sections).
    public var sections: DiffResult
    /// The changes to the rows, all sections' rows taken as one list.
    public var rows: DiffResult

    /// An update made of the given changes.
    public init(sections: DiffResult, rows: DiffResult) {
        self.sections = sections
        self.rows = rows
    }
}
