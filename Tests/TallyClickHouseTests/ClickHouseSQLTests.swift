import TallyClickHouse
import TallyQuery
import XCTest

/// The binding of `{name:Type}` placeholders: every value becomes a checked literal.
final class ClickHouseSQLTests: XCTestCase {
    func testStringsAreQuotedWithEveryDangerousByteEscaped() {
        XCTAssertEqual(ClickHouseSQL.literal("plain"), "'plain'")
        XCTAssertEqual(ClickHouseSQL.literal("it's"), #"'it\'s'"#)
        XCTAssertEqual(ClickHouseSQL.literal(#"back\slash"#), #"'back\\slash'"#)
        XCTAssertEqual(ClickHouseSQL.literal("a\nb\tc\r\0"), #"'a\nb\tc\r\0'"#)
        XCTAssertEqual(ClickHouseSQL.literal("线性代数"), "'线性代数'")
    }

    func testInjectionAttemptsStayInsideTheLiteral() throws {
        for attack in ["' OR 1=1 --", #"\' OR 1=1 --"#, "x'); DROP TABLE reading_events; --", #"\"#, "'''", "{user:String}"] {
            let sql = try ClickHouseSQL.bind("SELECT 1 WHERE user_id = {user:String}", ["user": .text(attack)])
            let literal = String(sql.dropFirst("SELECT 1 WHERE user_id = ".count))
            XCTAssertEqual(literal, ClickHouseSQL.literal(attack))
            XCTAssertTrue(literal.hasPrefix("'") && literal.hasSuffix("'"), literal)
            // Inside, every quote is escaped by a backslash that is not itself escaped.
            var escaped = false
            for character in literal.dropFirst().dropLast() {
                if !escaped { XCTAssertNotEqual(character, "'", literal) }
                escaped = !escaped && character == "\\"
            }
            XCTAssertFalse(escaped, "a dangling backslash would escape the closing quote: \(literal)")
        }
    }

    func testPlaceholdersInLiteralsAndCommentsAreLeftAlone() throws {
        let sql = """
            -- {user:String} in a comment
            SELECT '{user:String}', "{user:String}", /* {user:String} */ {user:String}
            """
        XCTAssertEqual(try ClickHouseSQL.bind(sql, ["user": .text("u")]), """
            -- {user:String} in a comment
            SELECT '{user:String}', "{user:String}", /* {user:String} */ 'u'
            """)
    }

    func testStrictBindingRefusesAMissingOrMisspelledParameter() throws {
        XCTAssertThrowsError(try ClickHouseSQL.bind("{user:Nullable(String)}", [:], strict: true))
        XCTAssertThrowsError(try ClickHouseSQL.bind("{user:Nullable(String)}", ["usr": .text("u")], strict: true))
        XCTAssertEqual(try ClickHouseSQL.bind("{user:Nullable(String)}", ["user": .null], strict: true), "NULL")
    }

    func testTypesAreChecked() throws {
        XCTAssertEqual(try ClickHouseSQL.bind("{n:UInt64}", ["n": .int(5)]), "5")
        XCTAssertEqual(try ClickHouseSQL.bind("{n:Int64}", ["n": .int(-5)]), "(-5)")
        XCTAssertEqual(try ClickHouseSQL.bind("{n:Int64}", ["n": .text("12")]), "12")
        XCTAssertEqual(try ClickHouseSQL.bind("{u:Nullable(String)}", [:]), "NULL")
        XCTAssertEqual(try ClickHouseSQL.bind("{d:Date}", ["d": .text("2026-11-20")]), "'2026-11-20'")
        XCTAssertEqual(try ClickHouseSQL.bind("{d:Date}", ["d": .text("0500-03-01")]), "'0500-03-01'", "local dates are text, beyond Date's 1970...2105")
        XCTAssertEqual(try ClickHouseSQL.bind("{a:Array(Int64)}", ["a": .text("[0, 5,-1]")]), "CAST([0,5,-1] AS Array(Int64))")
        XCTAssertThrowsError(try ClickHouseSQL.bind("{n:UInt64}", ["n": .text("5 OR 1=1")]))
        XCTAssertThrowsError(try ClickHouseSQL.bind("{n:UInt64}", ["n": .int(-1)]))
        XCTAssertThrowsError(try ClickHouseSQL.bind("{d:Date}", ["d": .text("2026-11-20' OR '1")]))
        XCTAssertThrowsError(try ClickHouseSQL.bind("{a:Array(Int64)}", ["a": .text("[1]) OR (1")]))
        XCTAssertThrowsError(try ClickHouseSQL.bind("{u:String}", [:])) { error in
            XCTAssertEqual(error as? QueryError, .invalidParameter(name: "u", message: "u must be given, got nothing"))
        }
        XCTAssertThrowsError(try ClickHouseSQL.bind("{u:Tuple(String)}", ["u": .text("x")]))
    }

    func testDatabaseNamesAreIdentifiers() {
        XCTAssertEqual(try ClickHouseSQL.identifier("tally_2"), "tally_2")
        XCTAssertThrowsError(try ClickHouseSQL.identifier("tally; DROP DATABASE x"))
        XCTAssertThrowsError(try ClickHouseSQL.identifier("2tally"))
        XCTAssertThrowsError(try ClickHouseSQL.identifier(""))
    }
}
