import CSQLite
import Foundation
import TallySQLite

/// A VFS over SQLite's default one that records what happens to write-ahead logs (each write
/// and each sync, in order), so that a test can tell whether everything committed before a
/// point had reached the disk at that point. Installed as the default VFS while a test runs:
/// connections opened meanwhile go through it.
enum WALSyncRecorder {
    /// What happened to a write-ahead log.
    enum Operation: Equatable {
        case write
        case sync
    }

    /// The operations on write-ahead logs since `install()` or `reset()`, in order.
    nonisolated(unsafe) static var operations: [Operation] = []

    /// The syncs among `operations`.
    static var syncs: Int { operations.count(where: { $0 == .sync }) }

    /// Whether every write of a log was followed by a sync: what was committed is on disk.
    static var everythingWrittenIsSynced: Bool { operations.last.map { $0 == .sync } ?? true }

    /// Forgets the operations recorded so far.
    static func reset() { operations = [] }

    nonisolated(unsafe) private static var underlying: UnsafeMutablePointer<sqlite3_vfs>?
    nonisolated(unsafe) private static var recorder: UnsafeMutablePointer<sqlite3_vfs>?
    nonisolated(unsafe) private static var methods: UnsafeMutablePointer<sqlite3_io_methods>?

    /// Room before the underlying file: its methods pointer, then whether it is a log.
    private static let header = 16

    /// Makes the recorder the default VFS, over the current default one.
    static func install() throws {
        _ = try Database(path: ":memory:")  // SQLite configured before anything else runs
        guard let base = sqlite3_vfs_find(nil) else { fatalError("SQLite has no default VFS") }
        underlying = base
        methods = makeMethods()
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.zName = UnsafePointer(strdup("tally-wal-sync-recorder"))
        vfs.pointee.pNext = nil
        vfs.pointee.szOsFile = base.pointee.szOsFile + Int32(header)
        vfs.pointee.xOpen = { _, name, file, flags, outFlags in
            let wrapper = file!, inner = WALSyncRecorder.inner(wrapper)
            let rc = WALSyncRecorder.underlying!.pointee.xOpen!(WALSyncRecorder.underlying, name, inner, flags, outFlags)
            wrapper.pointee.pMethods = inner.pointee.pMethods == nil ? nil : UnsafePointer(WALSyncRecorder.methods)
            UnsafeMutableRawPointer(wrapper).storeBytes(of: flags & SQLITE_OPEN_WAL != 0, toByteOffset: 8, as: Bool.self)
            return rc
        }
        recorder = vfs
        operations = []
        sqlite3_vfs_register(vfs, 1)
    }

    /// Makes the VFS that was the default before `install()` the default again.
    static func uninstall() {
        guard let recorder, let underlying else { return }
        sqlite3_vfs_unregister(recorder)
        sqlite3_vfs_register(underlying, 1)
        Self.recorder = nil
    }

    private static func inner(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + header).assumingMemoryBound(to: sqlite3_file.self)
    }

    private static func record(_ operation: Operation, _ file: UnsafeMutablePointer<sqlite3_file>) {
        if UnsafeMutableRawPointer(file).load(fromByteOffset: 8, as: Bool.self) {
            operations.append(operation)
        }
    }

    /// Methods that pass every call on to the underlying file, recording writes and syncs.
    private static func makeMethods() -> UnsafeMutablePointer<sqlite3_io_methods> {
        var m = sqlite3_io_methods()
        m.iVersion = 3
        m.xClose = { f in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xClose!(i) }
        m.xRead = { f, a, b, c in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xRead!(i, a, b, c) }
        m.xWrite = { f, a, b, c in
            WALSyncRecorder.record(.write, f!)
            let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xWrite!(i, a, b, c)
        }
        m.xTruncate = { f, a in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xTruncate!(i, a) }
        m.xSync = { f, a in
            let i = WALSyncRecorder.inner(f!)
            let rc = i.pointee.pMethods.pointee.xSync!(i, a)
            if rc == SQLITE_OK { WALSyncRecorder.record(.sync, f!) }
            return rc
        }
        m.xFileSize = { f, a in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xFileSize!(i, a) }
        m.xLock = { f, a in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xLock!(i, a) }
        m.xUnlock = { f, a in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xUnlock!(i, a) }
        m.xCheckReservedLock = { f, a in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xCheckReservedLock!(i, a) }
        m.xFileControl = { f, a, b in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xFileControl!(i, a, b) }
        m.xSectorSize = { f in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xSectorSize!(i) }
        m.xDeviceCharacteristics = { f in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xDeviceCharacteristics!(i) }
        m.xShmMap = { f, a, b, c, d in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xShmMap!(i, a, b, c, d) }
        m.xShmLock = { f, a, b, c in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xShmLock!(i, a, b, c) }
        m.xShmBarrier = { f in let i = WALSyncRecorder.inner(f!); i.pointee.pMethods.pointee.xShmBarrier!(i) }
        m.xShmUnmap = { f, a in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xShmUnmap!(i, a) }
        m.xFetch = { f, a, b, c in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xFetch!(i, a, b, c) }
        m.xUnfetch = { f, a, b in let i = WALSyncRecorder.inner(f!); return i.pointee.pMethods.pointee.xUnfetch!(i, a, b) }
        let pointer = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        pointer.initialize(to: m)
        return pointer
    }
}
