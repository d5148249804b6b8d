/// Bytes already in memory (a request body), handed out in chunks like a file.
final class MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private(set) var bytesRead = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, bytes.count - bytesRead)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + bytesRead, byteCount: n)
        }
        bytesRead += n
        return n
    }
}
