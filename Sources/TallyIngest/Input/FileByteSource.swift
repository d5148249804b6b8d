#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes read with `read(2)` from a file descriptor.
final class FileByteSource: ByteSource {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    private let name: String
    private(set) var bytesRead = 0

    /// Reads `descriptor`, which stays open when the source goes away unless `closesDescriptor`.
    init(descriptor: Int32, closesDescriptor: Bool, name: String) {
        self.descriptor = descriptor
        self.closesDescriptor = closesDescriptor
        self.name = name
    }

    /// Opens `path` for reading; the source closes it.
    convenience init(opening path: String, name: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw EventFileError.cannotOpen(file: name, errno: errno) }
        self.init(descriptor: fd, closesDescriptor: true, name: name)
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// The size of the file when the descriptor is a regular file, else nil (a pipe, a terminal).
    var regularFileSize: Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            #else
            let n = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
            #endif
            if n >= 0 {
                bytesRead += n
                return n
            }
            if errno != EINTR { throw EventFileError.cannotRead(file: name, errno: errno) }
        }
    }
}

