import Foundation
import TallyClickHouse
import TallyQuery
import XCTest

/// `TabSeparatedWithNamesAndTypes` answers read as typed rows, without a server.
final class ClickHouseResultTests: XCTestCase {
    private func result(_ text: String) throws -> ClickHouseResult {
        try ClickHouseResult(tabSeparated: Data(text.utf8))
    }

    func testValuesAreReadByTheirColumnsTypes() throws {
        let answer = try result("""
            n\tm\tx\ts\tt
            Int64\tNullable(UInt64)\tFloat64\tString\tNullable(String)
            -42\t\\N\t1.5\tplain\t\\N
            0\t7\tinf\ta\\tb\\nc\\\\d\\0\t
            9223372036854775807\t18446744073709551615\t-0.25\t线性代数 🚀\tx
            +5\t007\tnan\t\t\\\\N

            """)
        XCTAssertEqual(answer.names, ["n", "m", "x", "s", "t"])
        XCTAssertEqual(answer.types, ["Int64", "Nullable(UInt64)", "Float64", "String", "Nullable(String)"])
        XCTAssertEqual(answer.rows, [
            [.int(-42), .null, .double(1.5), .text("plain"), .null],
            [.int(0), .int(7), .null, .text("a\tb\nc\\d\0"), .text("")],
            [.int(Int64.max), .double(18446744073709551615), .double(-0.25), .text("线性代数 🚀"), .text("x")],
            [.int(5), .int(7), .null, .text(""), .text("\\N")],
        ])
        XCTAssertEqual(answer.value(answer.rows[0], "s"), .text("plain"))
        XCTAssertEqual(answer.value(answer.rows[0], "missing"), .null)
    }

    func testLinesAreRowsWhereverTheAnswerEnds() throws {
        // The last line may lack its newline; an empty line is a row of one empty field.
        XCTAssertEqual(try result("s\nString\na\n\nb").rows, [[.text("a")], [.text("")], [.text("b")]])
        XCTAssertEqual(try result("s\nString\n\n").rows, [[.text("")]])
        XCTAssertEqual(try result("s\nString\n").rows, [])
        XCTAssertEqual(try result("s\nString").rows, [])
    }

    func testAnAnswerNotInTheFormatIsAnError() {
        for text in ["", "s\n", "s"] {
            XCTAssertThrowsError(try result(text), "\(text.debugDescription)") { error in
                XCTAssertTrue("\(error)".contains("header lines"), "\(error)")
            }
        }
        XCTAssertThrowsError(try result("a\tb\nString\tString\nonly one\n")) { error in
            XCTAssertTrue("\(error)".contains("a row of 1 fields where 2 columns were announced"), "\(error)")
        }
    }
}
