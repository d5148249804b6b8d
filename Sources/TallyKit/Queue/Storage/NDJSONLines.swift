/// Splitting an NDJSON body into its lines.
public enum NDJSONLines {
    /// The ranges of the non-empty lines of `body`, without their line ends.
    public static func ranges(in body: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for index in body.indices where body[index] == 0x0A {
            if index > start { ranges.append(start..<index) }
            start = index + 1
        }
        if start < body.count { ranges.append(start..<body.count) }
        return ranges
    }
}
