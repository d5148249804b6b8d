import TallySupport
import XCTest

/// The digest that stands for a rejected line kept in part, against known values.
final class SHA256Tests: XCTestCase {
    func testKnownDigests() {
        let cases: [([UInt8], String)] = [
            ([], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (Array("junk 1".utf8), "4bad2882fc8aa3892bf7f4eaaec06481682fe4eb95d269af6333f010e8c4a33f"),
            ([UInt8](repeating: UInt8(ascii: "a"), count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
            (Array((0..<3).flatMap { _ in (0...255).map(UInt8.init) }) + [UInt8](repeating: UInt8(ascii: "x"), count: 55),
             "1d099a857037971bbd4c2e0a22e35939ef393d1831523e67d125d194e77ee949"),
        ]
        for (bytes, digest) in cases {
            XCTAssertEqual(bytes.withUnsafeBytes { SHA256.hex($0) }, digest, "\(bytes.count) bytes")
        }
    }
}
