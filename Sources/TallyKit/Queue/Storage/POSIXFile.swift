#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// The few file-system calls the queue makes, with errors that name the file.
enum POSIXFile {
    /// Opens `path` with `flags` (and `mode` when creating).
    static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(QueueError) -> Int32 {
        let descriptor = path.withCString { systemOpen($0, flags, mode) }
        guard descriptor >= 0 else { throw .system("open", path: path, errno: errno) }
        return descriptor
    }

    /// Writes all of `bytes` at the descriptor's position.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(QueueError) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                throw .system("write", path: path, errno: errno)
            }
            written += result
        }
    }

    /// Flushes the descriptor's data to stable storage.
    static func sync(_ descriptor: Int32, path: String) throws(QueueError) {
        guard fsync(descriptor) == 0 else { throw .system("fsync", path: path, errno: errno) }
    }

    /// Makes the creation, renaming or removal of entries of `directory` durable.
    static func syncDirectory(_ directory: String) throws(QueueError) {
        let descriptor = try open(directory, O_RDONLY)
        defer { close(descriptor) }
        try sync(descriptor, path: directory)
    }

    /// Replaces `path` with `bytes` so that a crash leaves either the old or the new content:
    /// a temporary file is written and synced, renamed over `path`, and the directory synced.
    static func replaceAtomically(_ path: String, directory: String, with bytes: [UInt8]) throws(QueueError) {
        let temporary = path + ".tmp"
        let descriptor = try open(temporary, O_WRONLY | O_CREAT | O_TRUNC)
        do throws(QueueError) {
            try writeAll(descriptor, bytes, path: temporary)
            try sync(descriptor, path: temporary)
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw .system("rename", path: temporary, errno: errno) }
        try syncDirectory(directory)
    }

    /// Creates `path` holding `bytes`, synced before returning.
    static func createSynced(_ path: String, with bytes: [UInt8]) throws(QueueError) {
        let descriptor = try open(path, O_WRONLY | O_CREAT | O_TRUNC)
        defer { close(descriptor) }
        try writeAll(descriptor, bytes, path: path)
        try sync(descriptor, path: path)
    }

    /// The whole content of `path`, or nil when it does not exist.
    static func read(_ path: String) throws(QueueError) -> [UInt8]? {
        let descriptor = path.withCString { systemOpen($0, O_RDONLY, 0) }
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .system("open", path: path, errno: errno)
        }
        defer { close(descriptor) }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system("read", path: path, errno: errno)
            }
            if count == 0 { return content }
            content.append(contentsOf: chunk[0..<count])
        }
    }

    /// The size of `path` in bytes, 0 when it does not exist.
    static func size(_ path: String) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }

    /// The names in `directory` (not `.` and `..`).
    static func list(_ directory: String) throws(QueueError) -> [String] {
        guard let handle = opendir(directory) else { throw .system("opendir", path: directory, errno: errno) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates `directory` (and its parents) when missing.
    static func makeDirectory(_ directory: String) throws(QueueError) {
        var path = ""
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            path += "/" + component
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw .system("mkdir", path: path, errno: errno)
            }
        }
    }

    /// Removes `path`; a missing file is not an error.
    static func remove(_ path: String) throws(QueueError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .system("unlink", path: path, errno: errno) }
    }

    /// `open(2)`, whose C declaration is variadic.
    private static func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Darwin)
        Darwin.open(path, flags, mode)
        #else
        Glibc.open(path, flags, mode)
        #endif
    }

    /// `read(2)`.
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(descriptor, buffer, count)
        #else
        Glibc.read(descriptor, buffer, count)
        #endif
    }
}
