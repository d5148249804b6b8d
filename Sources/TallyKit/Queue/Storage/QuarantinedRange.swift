/// Bytes of a segment that hold no valid record and were copied to the quarantine folder.
struct QuarantinedRange: Codable, Sendable, Equatable {
    /// The segment number.
    var segment: UInt64
    /// The first byte.
    var start: Int
    /// The byte after the last.
    var end: Int
}
