import NIOConcurrencyHelpers
import Testing
import TallyServer

@Suite struct FingerprintVersionTests {
    /// A fingerprint that counts its reads and returns what the test sets.
    final class Source: Sendable {
        let value = NIOLockedValueBox("a")
        let reads = NIOLockedValueBox(0)

        func read() -> String {
            reads.withLockedValue { $0 += 1 }
            return value.withLockedValue { $0 }
        }
    }

    @Test func aFingerprintStandsForItsAgeThenIsReadAgain() throws {
        let source = Source()
        let version = FingerprintVersion(maxAgeMs: 1000) { source.read() }
        #expect(version.peek(nowMs: 0) == nil)
        #expect(try version.read(nowMs: 0) == "a")
        source.value.withLockedValue { $0 = "b" }
        // Another process wrote: the old fingerprint stands until it is maxAgeMs old.
        #expect(version.peek(nowMs: 999) == "a")
        #expect(version.peek(nowMs: 1000) == nil)
        #expect(try version.read(nowMs: 1000) == "b")
        // A clock that went back does not keep a fingerprint forever.
        #expect(version.peek(nowMs: 500) == nil)
        #expect(source.reads.withLockedValue { $0 } == 2)
    }

    @Test func theServersOwnWriteMakesTheNextVersionBeReadAtOnce() throws {
        let source = Source()
        let version = FingerprintVersion(maxAgeMs: 60_000) { source.read() }
        #expect(try version.read(nowMs: 0) == "a")
        source.value.withLockedValue { $0 = "b" }
        version.writerStored()
        #expect(version.peek(nowMs: 1) == nil)
        #expect(try version.read(nowMs: 1) == "b")
        #expect(version.peek(nowMs: 2) == "b")
    }

    @Test func aReadDuringAWriteDoesNotOutliveIt() throws {
        let source = Source()
        let writer = NIOLockedValueBox<FingerprintVersion?>(nil)
        let version = FingerprintVersion(maxAgeMs: 60_000) {
            // The writer stores while the fingerprint is being read: what was read may be older.
            let value = source.read()
            writer.withLockedValue { $0 }?.writerStored()
            return value
        }
        writer.withLockedValue { $0 = version }
        _ = try version.read(nowMs: 0)
        #expect(version.peek(nowMs: 1) == nil)
    }
}
