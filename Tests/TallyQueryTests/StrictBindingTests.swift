import TallyQuery
import TallySQLite
import XCTest

/// The report queries bind strictly: a parameter the SQL names but the caller did not give
/// (missing, or misspelled) throws rather than binding NULL, which reads as "all users".
final class StrictBindingTests: XCTestCase {
    func testAMissingOrMisspelledParameterThrows() throws {
        let reports = SQLiteReports(store: try StoreFixture([StoreFixture.reading("a", user: "a", ts: StoreFixture.ms(), delta: 30)]).store)
        XCTAssertThrowsError(try reports.savedRows("learning_days", parameters: [:]))
        XCTAssertThrowsError(try reports.savedRows("learning_days", parameters: ["usr": .text("a")]))
        XCTAssertEqual(try reports.savedRows("learning_days", parameters: ["user": .text("nobody")]).count, 0)
        XCTAssertEqual(try reports.savedRows("learning_days", parameters: ["user": .null]).count, 1)
    }
}
