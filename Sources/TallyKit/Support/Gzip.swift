import CZlib

/// gzip compression of request bodies (RFC 1952), one member per call.
public enum Gzip {
    /// Errors zlib reports while compressing.
    public struct Failure: Error, CustomStringConvertible {
        /// zlib's status code.
        public let status: Int32
        /// What failed, in a sentence.
        public var description: String { "gzip compression failed (zlib status \(status))" }
    }

    /// `bytes` as one gzip member. Deterministic: the same input and level give the same output,
    /// so a retried upload carries byte-identical content.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16 asks for a gzip header and trailer; the header's mtime stays 0.
        var status = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                   zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(status: status) }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        var input = bytes
        let produced: Int = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                status = deflate(&stream, Z_FINISH)
                return target.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(status: status) }
        output.removeSubrange(produced...)
        return output
    }
}
