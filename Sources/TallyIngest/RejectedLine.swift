/// What the stores keep of a rejected line: at most `prefixBytes` of it, so a file of huge
/// damaged lines cannot blow up the store; the SQLite store adds the whole line's length and
/// SHA-256, which tell lines alike in their first bytes apart.
public enum RejectedLine {
    /// The most bytes of a rejected line kept.
    public static let prefixBytes = 4096

    /// The first `prefixBytes` of `raw` or fewer, cut before a UTF-8 character that would not fit whole.
    public static func prefix(of raw: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard raw.count > prefixBytes else { return raw }
        var end = prefixBytes
        // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
        while end > prefixBytes - 4, raw[end] & 0xC0 == 0x80 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: raw[0..<end])
    }
}
