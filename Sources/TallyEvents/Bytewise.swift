/// A text (or an optional text) that is equal to another only when their UTF-8 bytes are, and
/// hashed by those bytes: the identity of an identifier.
///
/// Swift's `String` equality and hashing follow Unicode canonical equivalence, so `"caf\u{E9}"`
/// and `"cafe\u{301}"` are one dictionary key although they are different identifiers (and
/// different rows in the store, which compares bytes). Every place that uses an identifier as a
/// key, in a dictionary, a set or a comparison, wraps it: as a dictionary key
/// (`[Bytewise<String>: V]`) or as a stored property of a `Hashable` key
/// (`@Bytewise var user: String`), whose synthesized equality and hashing then compare bytes.
@propertyWrapper
public struct Bytewise<Value: BytewiseComparable>: Hashable, Sendable {
    /// The text.
    public var wrappedValue: Value

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Wraps `value`.
    public init(_ value: Value) {
        wrappedValue = value
    }

    /// Whether both hold the same bytes.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.wrappedValue.hasSameBytes(as: rhs.wrappedValue)
    }

    /// Hashes the bytes.
    public func hash(into hasher: inout Hasher) {
        wrappedValue.hashBytes(into: &hasher)
    }
}

/// A value `Bytewise` can compare and hash by its UTF-8 bytes: `String` and `String?`.
public protocol BytewiseComparable: Sendable {
    /// Whether `self` and `other` are the same bytes.
    func hasSameBytes(as other: Self) -> Bool
    /// Feeds the bytes to `hasher`.
    func hashBytes(into hasher: inout Hasher)
}

extension String: BytewiseComparable {
    /// Whether both strings are the same UTF-8 bytes (not merely canonically equivalent).
    public func hasSameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        if let same = utf8.withContiguousStorageIfAvailable({ mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.elementsEqual(theirs)
            }
        }), let same {
            return same
        }
        return utf8.elementsEqual(other.utf8)
    }

    /// Feeds the UTF-8 bytes and their count to `hasher`.
    public func hashBytes(into hasher: inout Hasher) {
        hasher.combine(utf8.count)
        if utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            for byte in utf8 { hasher.combine(byte) }
        }
    }
}

extension Optional: BytewiseComparable where Wrapped == String {
    /// Whether both are nil, or both texts are the same bytes.
    public func hasSameBytes(as other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let mine?, let theirs?): mine.hasSameBytes(as: theirs)
        default: false
        }
    }

    /// Feeds whether there is a text, and its bytes, to `hasher`.
    public func hashBytes(into hasher: inout Hasher) {
        hasher.combine(self != nil)
        self?.hashBytes(into: &hasher)
    }
}
