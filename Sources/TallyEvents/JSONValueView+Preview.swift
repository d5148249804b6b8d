extension JSONValueView {
    /// The value's JSON text for messages, cut after about 40 bytes (at a character boundary) with `…`.
    var preview: String {
        let limit = 40
        guard byteRange.count > limit else { return rawText }
        var cut = byteRange.lowerBound + limit
        while cut > byteRange.lowerBound, bytes[cut] & 0xC0 == 0x80 { cut -= 1 } // not inside a UTF-8 sequence
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[byteRange.lowerBound..<cut]), as: UTF8.self) + "…"
    }
}
