/// How far the active segment is synced; its lock also serializes commits.
struct CommitProgress {
    /// The segment synced last.
    var segment: UInt64 = 0
    /// Bytes of it synced.
    var offset = 0
}
