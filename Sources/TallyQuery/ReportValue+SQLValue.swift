import TallyStore

extension ReportValue {
    /// The report value of an SQL value; the empty blob that stands for "none" in rollup keys is null.
    init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .int(let v): self = .int(v)
        case .double(let v): self = .double(v)
        case .text(let v): self = .text(v)
        case .emptyBlob: self = .null
        }
    }
}
