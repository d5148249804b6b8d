extension Character {
    /// Terminal columns this character takes: 2 for East Asian Wide and Fullwidth characters
    /// and emoji, 0 for combining marks, format and control characters, else 1.
    ///
    /// A character is a grapheme cluster, so its first scalar decides, except that an emoji
    /// presentation selector (U+FE0F) anywhere makes it an emoji: `❤️`, `1️⃣`.
    var displayWidth: Int {
        let scalars = unicodeScalars
        let first = scalars[scalars.startIndex]
        if first.properties.isEmojiPresentation || scalars.contains("\u{FE0F}") {
            return 2
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            return Character.wideRanges.contains { $0.contains(first.value) } ? 2 : 1
        }
    }

    /// East Asian Wide and Fullwidth blocks (Unicode 15, UAX #11); emoji are found by their
    /// `Emoji_Presentation` property instead.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2E80...0x303E,    // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,    // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, enclosed CJK, CJK compatibility
        0x3400...0x4DBF,    // CJK Extension A
        0x4E00...0x9FFF,    // CJK Unified Ideographs
        0xA000...0xA4CF,    // Yi
        0xA960...0xA97F,    // Hangul Jamo Extended-A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK Compatibility Ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth ASCII variants
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x18CFF,  // ideographic symbols, Tangut, Khitan
        0x1AFF0...0x1B2FF,  // Kana supplement and extensions, Nüshu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x3FFFD,  // CJK Extensions B and later, planes 2 and 3
    ]
}
