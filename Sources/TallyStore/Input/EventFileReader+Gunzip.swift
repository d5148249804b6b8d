extension EventFileReader {
    /// The content of gzip `bytes` (every member, as `gzip -d` gives it), or nil as soon as it
    /// comes to more than `limit` bytes: a request body's size is bounded after decompression.
    ///
    /// - Throws: `EventFileError.corruptGzip` naming `name` when the data is damaged or cut short.
    public static func gunzip(_ bytes: [UInt8], limit: Int, name: String) throws -> [UInt8]? {
        let chunk = 64 << 10
        let source = try GzipByteSource(compressed: MemoryByteSource(bytes), prefix: UnsafeRawBufferPointer(start: nil, count: 0),
                                        chunkSize: chunk, name: name)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 1)
        defer { buffer.deallocate() }
        var content: [UInt8] = []
        while true {
            let n = try source.read(into: buffer)
            if n == 0 { return content }
            guard content.count + n <= limit else { return nil }
            content.append(contentsOf: buffer[0..<n])
        }
    }
}
