import Testing
@testable import TallyRender

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("abc", 3), ("", 0),
        ("线性代数", 8), ("日本語のタイトル", 16), ("한국어", 6), ("ＦＵＬＬ", 8), ("、。", 4),
        ("😀", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("❤️", 2), ("1️⃣", 2), ("✅", 2),
        ("✔", 1), ("café", 4), ("cafe\u{301}", 4), ("\u{301}", 0), ("a\u{200B}b", 2),
        ("·░▒▓█", 5), ("─", 1),
    ])
    func width(text: String, columns: Int) {
        #expect(text.displayWidth == columns)
    }

    @Test func truncationCountsColumns() {
        #expect("abcdef".truncated(toWidth: 4) == "abc…")
        #expect("abcd".truncated(toWidth: 4) == "abcd")
        #expect("线性代数".truncated(toWidth: 6) == "线性…")
        #expect("线性代数".truncated(toWidth: 5) == "线性…")
    }
}
