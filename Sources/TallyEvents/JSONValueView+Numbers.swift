extension JSONValueView {
    /// The number as an `Int64`, if the value is a number that is exactly an integer in range.
    ///
    /// `15`, `15.0`, `1.5e1` and `1500e-2` all give 15; `15.5`, `1e19` and non-numbers give `nil`.
    public var int64: Int64? {
        guard kind == .number else { return nil }
        if flags.contains(.integral), byteRange.count <= 18 {
            return smallIntegerLiteral()
        }
        guard let parts = decimalParts() else { return nil } // 20+ significant digits: not both integral and in range
        guard parts.significand != 0 else { return 0 }
        guard parts.exponent >= 0 else { return nil } // trailing zeros were folded in: a fraction remains
        var magnitude = parts.significand
        for _ in 0..<parts.exponent {
            let (scaled, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            magnitude = scaled
        }
        if parts.negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return Int64(bitPattern: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The number as the nearest `Double`, if the value is a number (`±infinity` beyond its range).
    public var double: Double? {
        guard kind == .number else { return nil }
        if let parts = decimalParts(), parts.significand <= 1 << 53, (-22...22).contains(parts.exponent) {
            // Clinger's fast path: both operands are exact, so one rounding gives the correct result.
            let exact = Double(parts.significand)
            let value = parts.exponent >= 0
                ? exact * JSONValueView.powersOfTen[parts.exponent]
                : exact / JSONValueView.powersOfTen[-parts.exponent]
            return parts.negative ? -value : value
        }
        return Double(rawText)
    }

    /// 10^0 ... 10^22, all exactly representable as `Double`.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// An integer literal of at most 18 bytes, which cannot overflow `Int64`.
    private func smallIntegerLiteral() -> Int64 {
        var i = byteRange.lowerBound
        let negative = bytes[i] == 0x2D
        if negative { i += 1 }
        var value: Int64 = 0
        while i < byteRange.upperBound {
            value = value &* 10 &+ Int64(bytes[i] &- 0x30)
            i += 1
        }
        return negative ? 0 &- value : value
    }

    /// The number as sign × significand × 10^exponent, the significand without trailing zeros;
    /// `nil` when it has more than 19 significant digits.
    private func decimalParts() -> (negative: Bool, significand: UInt64, exponent: Int)? {
        var i = byteRange.lowerBound
        let end = byteRange.upperBound
        let negative = bytes[i] == 0x2D
        if negative { i += 1 }
        var significand: UInt64 = 0
        var digits = 0 // significant digits taken into `significand`
        var pendingZeros = 0 // zeros read but not yet taken in (they may turn out to be trailing)
        var fractionDigits = 0
        var inFraction = false
        while i < end {
            let b = bytes[i]
            if b == 0x2E { // .
                inFraction = true
            } else if b &- 0x30 < 10 {
                if inFraction { fractionDigits += 1 }
                let digit = UInt64(b &- 0x30)
                if digit == 0 {
                    if significand != 0 { pendingZeros += 1 }
                } else {
                    digits += pendingZeros + 1
                    guard digits <= 19 else { return nil }
                    for _ in 0..<pendingZeros { significand &*= 10 }
                    significand = significand &* 10 &+ digit
                    pendingZeros = 0
                }
            } else {
                break // e or E
            }
            i += 1
        }
        var exponent = 0
        if i < end { // exponent part
            i += 1
            let negativeExponent = bytes[i] == 0x2D
            if bytes[i] == 0x2D || bytes[i] == 0x2B { i += 1 }
            while i < end {
                exponent = min(exponent * 10 + Int(bytes[i] &- 0x30), 1_000_000) // far beyond any Double
                i += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        guard significand != 0 else { return (negative, 0, 0) }
        return (negative, significand, exponent - fractionDigits + pendingZeros)
    }
}
