import CZlib

/// Inflates gzip data from another source, member after member (a multi-member file is the
/// concatenation of its members' contents, as `gzip -d` gives it).
///
/// Damage (a bad checksum, invalid data, bytes after the last member that start no other one)
/// is reported only once everything inflated before it has been handed over, so a reader keeps
/// every whole line before the damage, as for a truncated file. `maxOutput` bounds the
/// inflated bytes in all.
final class GzipByteSource: ByteSource {
    private let compressed: any ByteSource
    private let name: String
    /// zlib checks that the stream never moves, so it lives on the heap.
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    /// At the end of a member (or before the first): running out of input here is a clean end.
    private var atMemberBoundary = true
    /// Whether a member has ended: after one, bytes without the gzip signature are trailing garbage.
    private var membersEnded = false
    private var inputEnded = false
    /// Damage found while inflated bytes were still to be handed over: thrown by the next read.
    private var pending: EventFileError?
    /// The most bytes inflated in all; nil for no limit.
    private let maxOutput: Int?
    private var inflatedTotal = 0

    /// Inflates `compressed`, whose first bytes, already read, are `prefix`; reads `chunkSize`
    /// compressed bytes at a time and throws `EventFileError.inflatedTooLarge` past `maxOutput`
    /// inflated bytes.
    init(compressed: any ByteSource, prefix: UnsafeRawBufferPointer, chunkSize: Int, name: String, maxOutput: Int? = nil) throws {
        self.compressed = compressed
        self.name = name
        self.maxOutput = maxOutput
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
        if let pending {
            self.pending = nil
            throw pending
        }
        let s = stream
        s.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        s.pointee.avail_out = uInt(buffer.count)
        do {
            try inflate(into: buffer)
        } catch let error as EventFileError {
            // Hand over what inflated before the damage first.
            guard s.pointee.avail_out < uInt(buffer.count) else { throw error }
            pending = error
        }
        let count = buffer.count - Int(s.pointee.avail_out)
        inflatedTotal += count
        if let maxOutput, inflatedTotal > maxOutput {
            throw EventFileError.inflatedTooLarge(file: name, limit: maxOutput)
        }
        return count
    }

    /// Inflates into what is left of `buffer` (`stream`'s output), reading input as needed.
    private func inflate(into buffer: UnsafeMutableRawBufferPointer) throws {
        let s = stream
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
                if membersEnded && !startsMember(UnsafeBufferPointer(start: s.pointee.next_in, count: Int(s.pointee.avail_in))) {
                    throw EventFileError.trailingGarbage(file: name, offset: compressedOffset)
                }
                if inflateReset(s) != Z_OK { throw corrupt("zlib could not restart") }
                atMemberBoundary = false
            }
            switch CZlib.inflate(s, Z_NO_FLUSH) {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                atMemberBoundary = true
                membersEnded = true
            case Z_NEED_DICT:
                throw corrupt("a preset dictionary is required")
            default:
                throw corrupt(s.pointee.msg.map { String(cString: $0) } ?? "invalid data")
            }
        }
        if inputEnded && !atMemberBoundary && s.pointee.avail_out == uInt(buffer.count) {
            throw EventFileError.truncatedGzip(file: name, offset: compressed.bytesRead)
        }
    }

    /// Whether `bytes` (at least one) can start a gzip member: the signature 1f 8b, as far as it is there.
    private func startsMember(_ bytes: UnsafeBufferPointer<Bytef>) -> Bool {
        bytes[0] == 0x1F && (bytes.count < 2 || bytes[1] == 0x8B)
    }

    private func corrupt(_ reason: String) -> EventFileError {
        .corruptGzip(file: name, offset: compressedOffset, reason: reason)
    }
}
