import Testing
@testable import TallyServer

@Suite struct ParsingTests {
    @Test func clickHouseStatements() {
        #expect(ClickHouseInsert("INSERT INTO events FORMAT JSONEachRow")?.table == "events")
        #expect(ClickHouseInsert("  insert into db.events\n format jsoneachrow ")?.table == "db.events")
        #expect(ClickHouseInsert("INSERT INTO t (a, b) FORMAT JSONEachRow")?.table == "t")
        #expect(ClickHouseInsert("INSERT INTO t(a) FORMAT JSONEachRow")?.table == "t")
        #expect(ClickHouseInsert("INSERT INTO t(a, b) FORMAT JSONEachRow")?.table == "t")
        #expect(ClickHouseInsert("INSERT INTO t FORMAT CSV") == nil)
        #expect(ClickHouseInsert("SELECT * FROM t") == nil)
        #expect(ClickHouseInsert("INSERT INTO t FORMAT JSONEachRow; DROP TABLE t") == nil)
    }

    @Test func queryStringsDecodeAsFormsDo() throws {
        let parameters = try QueryParameters("user=a+b%2Fc&tz=%2B08:00&empty&q=%E4%B8%89")
        #expect(try parameters.value("user") == "a b/c")
        #expect(try parameters.value("tz") == "+08:00")
        #expect(try parameters.value("empty") == "")
        #expect(try parameters.value("q") == "三")
        #expect(try parameters.value("absent") == nil)
        #expect(throws: APIError.self) { try QueryParameters("a=%FF") }
        #expect(throws: APIError.self) { try QueryParameters("a=%4") }
    }

    @Test func ifNoneMatchListsAndWildcards() {
        #expect(IfNoneMatch(["\"a\", W/\"b\""]).matches("\"b\""))
        #expect(IfNoneMatch(["*"]).matches("\"x\""))
        #expect(!IfNoneMatch(["\"a\""]).matches("\"b\""))
        #expect(!IfNoneMatch([]).matches("\"b\""))
    }
}
