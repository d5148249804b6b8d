import TallySupport

/// Finds out how an input is laid out from its first bytes: gzip or not, then (after a BOM)
/// whether the text is NDJSON, a batch array or a batch object (`events.md`).
enum FormatDetector {
    /// The outcome: where decoded bytes come from, the format, and where records start.
    struct Detection {
        /// The decoded bytes: the raw source, or gzip over it.
        var source: any ByteSource
        /// The layout.
        var format: EventFileReader.Format
        /// The window offset where splitting starts: a line start, or just after the array's `[`.
        var offset: Int
        /// The 1-based line at `offset`.
        var line: Int
    }

    /// Reads the first bytes of `raw` into `window` (which keeps them for the splitter) and detects the format.
    ///
    /// - Parameters:
    ///   - linesOnly: the name says `.ndjson` or `.jsonl`: always NDJSON.
    ///   - expectsGzip: the name ends in `.gz`: data without the gzip signature is an error.
    ///   - maxInflatedBytes: the most bytes gzip data may inflate to; nil for no limit.
    static func detect(
        window: InputWindow, raw: any ByteSource, name: String, linesOnly: Bool, expectsGzip: Bool,
        chunkSize: Int, maxRecordBytes: Int, maxInflatedBytes: Int?
    ) throws -> Detection {
        try window.fill(from: raw, toAtLeast: 2)
        var source = raw
        if Gzip.isGzip(UnsafeBufferPointer(start: window.base, count: window.count)) {
            source = try GzipByteSource(compressed: raw, prefix: UnsafeRawBufferPointer(start: window.base, count: window.count),
                                        chunkSize: chunkSize, name: name, maxOutput: maxInflatedBytes)
            window.removeAll()
        } else if expectsGzip && window.count > 0 {
            throw EventFileError.notGzip(file: name)
        }

        try window.fill(from: source, toAtLeast: 3)
        let bom = window.count >= 3 && window.base[0] == 0xEF && window.base[1] == 0xBB && window.base[2] == 0xBF ? 3 : 0
        // Skip blank lines, forgetting them as they end, up to the first non-blank byte.
        var lineStart = bom
        var line = 1
        var i = bom
        // Decoded bytes already forgotten, for offsets in messages.
        var consumed = 0
        while true {
            while i < window.count {
                let c = window.base[i]
                if c == 0x0A {
                    line += 1
                    lineStart = i + 1
                } else if !c.isBlank {
                    break
                }
                i += 1
            }
            if i < window.count { break }
            window.discard(lineStart)
            consumed += lineStart
            i -= lineStart
            lineStart = 0
            if try window.fill(from: source) == 0 {
                return Detection(source: source, format: .ndjson, offset: 0, line: line)
            }
        }

        // A file that starts like JSON goes on even with binary bytes further on (a damaged
        // line is that line's problem); one that does not and holds binary bytes is no event file.
        let first = window.base[i]
        if first != UInt8(ascii: "{") && first != UInt8(ascii: "[") {
            // The whole sample, however many bytes one read gave (a pipe gives few).
            try window.fill(from: source, toAtLeast: TextSniffer.sampleSize)
            let sample = UnsafeRawBufferPointer(start: window.base, count: min(window.count, TextSniffer.sampleSize))
            if let bad = TextSniffer.firstNonText(in: sample) {
                throw EventFileError.notText(file: name, offset: consumed + bad, byte: window.base[bad])
            }
        }

        let ndjson = Detection(source: source, format: .ndjson, offset: lineStart, line: line)
        if linesOnly { return ndjson }
        switch first {
        case UInt8(ascii: "["):
            return Detection(source: source, format: .batchArray, offset: i + 1, line: line)
        case UInt8(ascii: "{"):
            var probe = BatchObjectProbe(objectStart: i)
            while true {
                switch probe.scan(window.base, count: window.count) {
                case .batch(let start):
                    let newlines = UnsafeBufferPointer(start: window.base + i, count: start - i).count { $0 == 0x0A }
                    return Detection(source: source, format: .batchObject, offset: start, line: line + newlines)
                case .notBatch:
                    return ndjson
                case .undecided:
                    // Bounded memory: a first object longer than a record may be is taken for a line.
                    if window.count - i >= maxRecordBytes { return ndjson }
                    if try window.fill(from: source) == 0 { return ndjson }
                }
            }
        default:
            return ndjson
        }
    }
}
