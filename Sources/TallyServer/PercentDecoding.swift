import Hummingbird

/// Percent-decoding of URL parts into UTF-8 text: `%XX` is a byte; in a query string `+` is
/// also a space (as HTML forms encode it), in a path segment it is a plus.
enum PercentDecoding {
    /// `text` decoded; `place` names the part in the 400 for a bad `%` or bytes that are not UTF-8.
    static func decode(_ text: Substring, plusIsSpace: Bool, place: String) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw APIError.invalidParameter("\(place) has a % not followed by two hex digits.")
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw APIError.invalidParameter("\(place) is not UTF-8 once decoded.")
        }
        return string
    }

    /// The path parameter `name` (one segment, such as `{materialId}`), decoded: `m%2042` is
    /// `m 42`, `a%2Fb` is `a/b`, `%E6%95%99` is `教`.
    static func pathParameter(_ parameters: Parameters, _ name: String) throws -> String {
        try decode(try parameters.require(name)[...], plusIsSpace: false, place: "The path segment {\(name)}")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
