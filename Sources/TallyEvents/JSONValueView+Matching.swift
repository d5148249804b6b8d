extension JSONValueView {
    /// Whether the value is a string equal to `literal`, compared without building a `String` when possible.
    func isString(_ literal: StaticString) -> Bool {
        guard let raw = unescapedStringBytes else { return string == literal.description }
        return literal.withUTF8Buffer { JSONValueView.equal(raw, UnsafeRawBufferPointer($0)) }
    }

    /// The case of `type` whose raw value the string value equals; `nil` for other values.
    func stringCase<Kind: RawRepresentable & CaseIterable>(of type: Kind.Type) -> Kind? where Kind.RawValue == String {
        guard let raw = unescapedStringBytes else { return string.flatMap(Kind.init(rawValue:)) }
        for kind in Kind.allCases {
            var name = kind.rawValue
            if name.withUTF8({ JSONValueView.equal(raw, UnsafeRawBufferPointer($0)) }) { return kind }
        }
        return nil
    }

    /// Whether two byte runs are equal.
    private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] {
            return false
        }
        return true
    }
}
