extension Reports: ReportBackend {
    /// The SQLite text of `queries/NAME.sql`.
    public func savedQuery(_ name: String) throws -> String {
        try QueryLibrary.sql(name)
    }
}
