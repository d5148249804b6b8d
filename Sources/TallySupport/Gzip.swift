import CZlib

/// gzip (RFC 1952): compressing the uploaders' request bodies, one member per call, and
/// recognising gzip data wherever it is read (event files, request bodies).
public enum Gzip {
    /// The two bytes every gzip member starts with (RFC 1952's ID1 and ID2).
    public static let signature: [UInt8] = [0x1F, 0x8B]

    /// Whether `bytes` start with the gzip signature.
    public static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: signature)
    }

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
