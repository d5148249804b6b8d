#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// One segment file of the queue mapped into memory (`MAP_SHARED`).
///
/// The app's threads copy records into the writable mapping of the active segment: the bytes
/// land in the kernel's page cache, which outlives the process, so a `kill -9` loses nothing
/// copied. The background writer then `msync`s and `fsync`s, which makes them survive a power loss.
final class MappedSegment: @unchecked Sendable {
    /// The segment's number: segments are written in increasing number.
    let id: UInt64
    /// The file.
    let path: String
    /// The size of the mapping in bytes.
    let capacity: Int
    /// The mapping.
    let base: UnsafeMutableRawPointer
    private let descriptor: Int32

    private init(id: UInt64, path: String, capacity: Int, base: UnsafeMutableRawPointer, descriptor: Int32) {
        self.id = id
        self.path = path
        self.capacity = capacity
        self.base = base
        self.descriptor = descriptor
    }

    /// The file name of segment `id`: its number in 16 decimal digits, so names sort as numbers.
    static func fileName(_ id: UInt64) -> String {
        let digits = String(id)
        return "segment-" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits + ".tly"
    }

    /// The segment number of a file name, if it is one.
    static func id(ofFileName name: String) -> UInt64? {
        guard name.hasPrefix("segment-"), name.hasSuffix(".tly") else { return nil }
        return UInt64(name.dropFirst(8).dropLast(4))
    }

    /// Creates segment `id` in `directory`: a zero-filled file of `capacity` bytes, mapped writable.
    static func create(in directory: String, id: UInt64, capacity: Int) throws(QueueError) -> MappedSegment {
        let path = directory + "/" + fileName(id)
        let descriptor = try POSIXFile.open(path, O_RDWR | O_CREAT | O_TRUNC)
        guard ftruncate(descriptor, off_t(capacity)) == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            throw .system("ftruncate", path: path, errno: code)
        }
        return try map(id: id, path: path, descriptor: descriptor, capacity: capacity, writable: true)
    }

    /// Maps the existing segment file `path` read-only, or nil when it is empty.
    static func openForReading(_ path: String, id: UInt64) throws(QueueError) -> MappedSegment? {
        let descriptor = try POSIXFile.open(path, O_RDONLY)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            throw .system("fstat", path: path, errno: code)
        }
        guard info.st_size > 0 else {
            closeDescriptor(descriptor)
            return nil
        }
        return try map(id: id, path: path, descriptor: descriptor, capacity: Int(info.st_size), writable: false)
    }

    private static func map(id: UInt64, path: String, descriptor: Int32, capacity: Int,
                            writable: Bool) throws(QueueError) -> MappedSegment {
        let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
        guard let base = mmap(nil, capacity, protection, MAP_SHARED, descriptor, 0),
              base != UnsafeMutableRawPointer(bitPattern: -1) else {
            let code = errno
            closeDescriptor(descriptor)
            throw .system("mmap", path: path, errno: code)
        }
        return MappedSegment(id: id, path: path, capacity: capacity, base: base, descriptor: descriptor)
    }

    /// Touches every page of the mapping so the app's threads never take a page fault when they
    /// copy records in.
    func prefault() {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var offset = 0
        while offset < capacity {
            base.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
            offset += page
        }
    }

    /// Writes the bytes `start..<end` and the file's metadata to stable storage.
    func sync(from start: Int, to end: Int) throws(QueueError) {
        if end > start {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let alignedStart = start / page * page
            guard msync(base + alignedStart, end - alignedStart, MS_SYNC) == 0 else {
                throw .system("msync", path: path, errno: errno)
            }
        }
        try POSIXFile.sync(descriptor, path: path)
    }

    /// Unmaps the segment and closes its file.
    func close() {
        munmap(base, capacity)
        Self.closeDescriptor(descriptor)
    }

    private static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(descriptor)
        #else
        _ = Glibc.close(descriptor)
        #endif
    }
}
