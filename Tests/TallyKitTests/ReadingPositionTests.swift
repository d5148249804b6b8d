import TallyKit
import Testing

struct ReadingPositionTests {
    @Test func progressIsNormalised() {
        #expect(ReadingPosition(progress: 0.3).progress == 0.3)
        #expect(ReadingPosition(progress: 1.7).progress == 1)
        #expect(ReadingPosition(progress: -0.2).progress == 0)
        #expect(ReadingPosition(page: 3, pageCount: 10).progress == 0.3)
        #expect(ReadingPosition(page: 12, pageCount: 10).progress == 1)
        #expect(ReadingPosition(page: -1, pageCount: 10).progress == 0)
        #expect(ReadingPosition(page: 3, pageCount: 0).progress == nil)
        #expect(ReadingPosition(page: 3).progress == nil)
        #expect(ReadingPosition(page: 3, pageCount: 10, progress: .nan).progress == 0.3)
        #expect(ReadingPosition(page: 3, pageCount: 10, progress: 0.35).progress == 0.35)
    }

    @Test func writesThePositionObject() {
        #expect(ReadingPosition(page: 3, pageCount: 10, anchor: "cfi \"a\"").jsonText
            == #"{"anchor":"cfi \"a\"","page":3,"pageCount":10,"progress":0.3}"#)
        #expect(ReadingPosition().jsonText == "{}")
    }
}
