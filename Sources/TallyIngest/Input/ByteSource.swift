/// A stream of bytes the reader pulls in chunks: a file descriptor, memory, or gzip over either.
protocol ByteSource: AnyObject {
    /// Fills the front of `buffer` with the next bytes and returns how many; 0 only at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Bytes taken from the underlying file or memory so far (compressed bytes for gzip).
    var bytesRead: Int { get }
}
