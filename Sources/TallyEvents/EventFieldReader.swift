/// Reads the fields of one event object (or of an object nested in it), turning absent, null
/// and ill-typed fields into the rejections `events.md` prescribes. Absent and `null` are the same.
struct EventFieldReader {
    /// The object read.
    let object: JSONObjectView
    /// The dotted path of the object holding `object`, followed by a dot; empty at the top.
    private let parentPath: String
    /// The key of `object` in its parent; `nil` for the event itself.
    private let name: StaticString?

    /// A reader of a whole event.
    init(_ object: JSONObjectView) {
        self.init(object, parentPath: "", name: nil)
    }

    /// A reader of `object`, the member `name` of the object at `parentPath`.
    private init(_ object: JSONObjectView, parentPath: String, name: StaticString?) {
        self.object = object
        self.parentPath = parentPath
        self.name = name
    }

    /// The dotted path of `object` followed by a dot (`context.`); empty for the event itself.
    /// Built on demand: only rejections and deeper readers need it.
    var path: String {
        name.map { parentPath + $0.description + "." } ?? parentPath
    }

    /// The value of `key` unless absent or `null`.
    @inline(__always)
    func value(_ key: StaticString) -> JSONValueView? {
        guard let value = object[key], value.kind != .null else { return nil }
        return value
    }

    /// The dotted path of `key`, for rejections.
    func fieldPath(_ key: StaticString) -> String {
        path + key.description
    }

    // MARK: Rejections

    /// `MISSING_FIELD` for `key`.
    func missing(_ key: StaticString) -> EventRejection {
        let field = fieldPath(key)
        let detail = object[key] == nil ? "" : " but is null"
        return EventRejection(code: .missingField, field: field, message: "\(field) is required\(detail)")
    }

    /// `code` (by default `INVALID_FIELD`) for `key`, whose `value` is not `expected`.
    func invalid(_ key: StaticString, _ value: JSONValueView, expected: String,
                 code: RejectionCode = .invalidField) -> EventRejection {
        let field = fieldPath(key)
        return EventRejection(code: code, field: field, message: "\(field) must be \(expected), got \(value.preview)")
    }

    // MARK: Strings

    /// A required non-empty string.
    func requiredString(_ key: StaticString) throws(EventRejection) -> String {
        guard let value = value(key) else { throw missing(key) }
        guard let text = value.string, !text.isEmpty else { throw invalid(key, value, expected: "a non-empty string") }
        return text
    }

    /// An optional string (empty allowed).
    func optionalString(_ key: StaticString) throws(EventRejection) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.string else { throw invalid(key, value, expected: "a string") }
        return text
    }

    /// A required string naming a case of `type`.
    func requiredCase<Kind: RawRepresentable & CaseIterable>(_ key: StaticString, of type: Kind.Type)
        throws(EventRejection) -> Kind where Kind.RawValue == String {
        guard let value = value(key) else { throw missing(key) }
        return try caseOf(key, value, type)
    }

    /// An optional string naming a case of `type`.
    func optionalCase<Kind: RawRepresentable & CaseIterable>(_ key: StaticString, of type: Kind.Type)
        throws(EventRejection) -> Kind? where Kind.RawValue == String {
        guard let value = value(key) else { return nil }
        return try caseOf(key, value, type)
    }

    /// The case of `type` that `value` names.
    private func caseOf<Kind: RawRepresentable & CaseIterable>(_ key: StaticString, _ value: JSONValueView, _ type: Kind.Type)
        throws(EventRejection) -> Kind where Kind.RawValue == String {
        guard let kind = value.stringCase(of: type) else {
            let names = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw invalid(key, value, expected: "one of \(names)")
        }
        return kind
    }

    // MARK: Numbers

    /// A required integer in `range`.
    func requiredInteger(_ key: StaticString, in range: ClosedRange<Int64>) throws(EventRejection) -> Int64 {
        guard let value = value(key) else { throw missing(key) }
        return try integer(key, value, in: range, code: .invalidField)
    }

    /// An optional integer in `range`; a wrong one is rejected with `code`.
    func optionalInteger(_ key: StaticString, in range: ClosedRange<Int64> = Int64.min...Int64.max,
                         code: RejectionCode = .invalidField) throws(EventRejection) -> Int64? {
        guard let value = value(key) else { return nil }
        return try integer(key, value, in: range, code: code)
    }

    /// `value` as an integer in `range`.
    private func integer(_ key: StaticString, _ value: JSONValueView, in range: ClosedRange<Int64>,
                         code: RejectionCode) throws(EventRejection) -> Int64 {
        guard let number = value.int64, range.contains(number) else {
            let expected = switch (range.lowerBound, range.upperBound) {
            case (Int64.min, Int64.max): "an integer"
            case (let lower, Int64.max): "an integer >= \(lower)"
            case (let lower, let upper): "an integer in \(lower)...\(upper)"
            }
            throw invalid(key, value, expected: expected, code: code)
        }
        return number
    }

    /// An optional number in `0...1`.
    func optionalFraction(_ key: StaticString) throws(EventRejection) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.double, (0...1).contains(number) else {
            throw invalid(key, value, expected: "a number in 0...1")
        }
        return number
    }

    /// A required timestamp: an integer of milliseconds since the Unix epoch or, when `iso`, also an
    /// ISO-8601 string; in `Instant.supportedRange`. Anything else is `INVALID_TIMESTAMP`.
    func requiredTimestamp(_ key: StaticString, iso: Bool) throws(EventRejection) -> Int64 {
        guard let value = value(key) else { throw missing(key) }
        switch value.kind {
        case .number:
            if let ms = value.int64, Instant.supportedRange.contains(ms) { return ms }
        case .string where iso:
            let ms = value.unescapedStringBytes.map(Instant.parse(isoUTF8:)) ?? value.string.flatMap(Instant.parse(iso:))
            if let ms { return ms }
        default:
            break
        }
        let expected = (iso ? "an ISO-8601 instant or " : "") + "an integer of milliseconds since the Unix epoch (years 0000...9999)"
        throw invalid(key, value, expected: expected, code: .invalidTimestamp)
    }

    // MARK: Objects

    /// A required object, read by a nested reader.
    func requiredObject(_ key: StaticString) throws(EventRejection) -> EventFieldReader {
        guard let value = value(key) else { throw missing(key) }
        return try nested(key, value)
    }

    /// An optional object, read by a nested reader.
    func optionalObject(_ key: StaticString) throws(EventRejection) -> EventFieldReader? {
        guard let value = value(key) else { return nil }
        return try nested(key, value)
    }

    /// A reader of `value`, which must be an object.
    private func nested(_ key: StaticString, _ value: JSONValueView) throws(EventRejection) -> EventFieldReader {
        guard let object = value.object else { throw invalid(key, value, expected: "an object") }
        return EventFieldReader(object, parentPath: path, name: key)
    }
}
