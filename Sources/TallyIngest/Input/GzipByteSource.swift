import CZlib

/// Inflates gzip data from another source, member after member (a multi-member file is the
/// concatenation of its members' contents, as `gzip -d` gives it).
final class GzipByteSource: ByteSource {
    private let compressed: any ByteSource
    private let name: String
    /// zlib checks that the stream never moves, so it lives on the heap.
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    /// At the end of a member (or before the first): running out of input here is a clean end.
    private var atMemberBoundary = true
    private var inputEnded = false

    /// Inflates `compressed`, whose first bytes, already read, are `prefix`; reads `chunkSize` compressed bytes at a time.
    init(compressed: any ByteSource, prefix: UnsafeRawBufferPointer, chunkSize: Int, name: String) throws {
        self.compressed = compressed
        self.name = name
        input = .allocate(byteCount: max(chunkSize, prefix.count), alignment: 1)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 window bits + 16: gzip wrapper only. On failure deinit still frees the buffers.
        guard inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw EventFileError.corruptGzip(file: name, offset: 0, reason: "zlib could not start")
        }
        if let base = prefix.baseAddress, prefix.count > 0 {
            input.baseAddress!.copyMemory(from: base, byteCount: prefix.count)
        }
        stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = uInt(prefix.count)
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    var bytesRead: Int { compressed.bytesRead }

    /// The offset in the compressed file of the next byte zlib has not consumed.
    private var compressedOffset: Int { compressed.bytesRead - Int(stream.pointee.avail_in) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let s = stream
        s.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        s.pointee.avail_out = uInt(buffer.count)
        while s.pointee.avail_out > 0 {
            if s.pointee.avail_in == 0 {
                let produced = buffer.count - Int(s.pointee.avail_out)
                // Hand over what is inflated rather than wait on a pipe for more.
                if produced > 0 || inputEnded { break }
                let n = try compressed.read(into: input)
                if n == 0 {
                    inputEnded = true
                    break
                }
                s.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                s.pointee.avail_in = uInt(n)
            }
            if atMemberBoundary {
                // Another member follows the one that ended (or this is the first).
                if inflateReset(s) != Z_OK { throw corrupt("zlib could not restart") }
                atMemberBoundary = false
            }
            switch inflate(s, Z_NO_FLUSH) {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                atMemberBoundary = true
            case Z_NEED_DICT:
                throw corrupt("a preset dictionary is required")
            default:
                throw corrupt(s.pointee.msg.map { String(cString: $0) } ?? "invalid data")
            }
        }
        if inputEnded && !atMemberBoundary && s.pointee.avail_out == uInt(buffer.count) {
            throw EventFileError.truncatedGzip(file: name, offset: compressed.bytesRead)
        }
        return buffer.count - Int(s.pointee.avail_out)
    }

    private func corrupt(_ reason: String) -> EventFileError {
        .corruptGzip(file: name, offset: compressedOffset, reason: reason)
    }
}
