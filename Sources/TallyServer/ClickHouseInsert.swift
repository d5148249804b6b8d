/// ClickHouse's HTTP insert, `POST /?query=INSERT INTO <table> FORMAT JSONEachRow`, as the
/// ClickHouse-style kits send it: the statement in `query=`, the rows in the body.
struct ClickHouseInsert: Sendable, Equatable {
    /// The table named, kept only to label rejected rows; every table stores into the same store.
    var table: String

    /// Parses `INSERT INTO [db.]table [(columns)] FORMAT JSONEachRow` (any case, any spacing);
    /// nil for anything else.
    init?(_ statement: String) {
        var words = statement.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })[...]
        func next(_ expected: String) -> Bool {
            guard let word = words.first, word.uppercased() == expected else { return false }
            words = words.dropFirst()
            return true
        }
        guard next("INSERT"), next("INTO"), let table = words.first else { return nil }
        words = words.dropFirst()
        var name = String(table)
        if let open = name.firstIndex(of: "(") {
            if !name.hasSuffix(")") {
                words = words.drop { !$0.hasSuffix(")") }.dropFirst()
            }
            name = String(name[..<open])
        } else if words.first?.hasPrefix("(") == true {
            words = words.drop { !$0.hasSuffix(")") }.dropFirst()
        }
        guard !name.isEmpty, next("FORMAT"), next("JSONEACHROW"), words.isEmpty else { return nil }
        self.table = name
    }
}
