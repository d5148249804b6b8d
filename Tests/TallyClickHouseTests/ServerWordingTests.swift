@testable import TallyClickHouse
import XCTest

/// What the backend reads from the server's words is the same on 18.16 and on current releases:
/// an error's code whatever the sentence around it (18.16's first line as `ClickHouseClient`
/// keeps it, and the current wording), a sorting key however it is parenthesised.
final class ServerWordingTests: XCTestCase {
    func testAnErrorIsKnownByItsCodeInEitherWording() {
        let answers = [
            (159, "Code: 159, DB::Exception: Timeout exceeded: elapsed 1.000195 seconds, maximum: 1"),
            (159, "Code: 159. DB::Exception: Timeout exceeded: elapsed 1013.226 ms, maximum: 1000.000 ms. (TIMEOUT_EXCEEDED) (version 26.9.2.1)"),
            (48, "Code: 48, DB::Exception: Method optimize is not supported by storage Distributed"),
            (48, "Code: 48. DB::Exception: Method optimize is not supported by storage Distributed. (NOT_IMPLEMENTED) (version 26.9.2.1)"),
            (279, "Code: 279, DB::NetException: All connection tries failed. Log: "),
            (519, "Code: 519. DB::NetException: All attempts to get table structure failed. Log: "),
        ]
        for (code, message) in answers {
            XCTAssertEqual(ClickHouseError.server(url: "http://127.0.0.1:8123", status: 500, message: message).code, code, message)
        }
        XCTAssertTrue(ClickHouseError.shardUnreachable.isSuperset(of: [279, 519]))
        XCTAssertNil(ClickHouseError.server(url: "http://127.0.0.1:8123", status: 502, message: "Bad Gateway").code)
        XCTAssertNil(ClickHouseError.unreachable(url: "http://127.0.0.1:8123", message: "Code: 1").code)
    }

    func testASortingKeyReadsTheSameHoweverItIsParenthesised() {
        XCTAssertEqual(ClickHouseSchema.comparableKey("name"), "name")
        XCTAssertEqual(ClickHouseSchema.comparableKey("(name)"), "name")
        XCTAssertEqual(ClickHouseSchema.comparableKey("user_id, local_date"), "user_id,local_date")
        XCTAssertEqual(ClickHouseSchema.comparableKey("(user_id, local_date)"), "user_id,local_date")
        XCTAssertEqual(ClickHouseSchema.comparableKey("file, line, element, cityHash64(raw)"), "file,line,element,cityHash64(raw)")
        XCTAssertEqual(ClickHouseSchema.comparableKey("toYYYYMM(local_date)"), "toYYYYMM(local_date)")
        XCTAssertEqual(ClickHouseSchema.comparableKey("(a), (b)"), "(a),(b)")
        XCTAssertNotEqual(ClickHouseSchema.comparableKey("material_id"), ClickHouseSchema.comparableKey("(user_id, material_id)"))
    }
}
