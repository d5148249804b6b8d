import TallyEvents
import Testing

struct JSONValueTests {
    @Test func writesEveryTypeWithKeysAscending() {
        let value: JSONValue = [
            "view_name": "home_view", "load_duration_ms": 420, "ratio": 0.25, "cached": false, "missing": nil,
            "tags": ["a", 1, 2.5, true, nil, [:], []], "nested": ["z": 1, "a": ["b": "c"]],
        ]
        #expect(value.jsonText == #"{"cached":false,"load_duration_ms":420,"missing":null,"nested":{"a":{"b":"c"},"z":1},"#
            + #""ratio":0.25,"tags":["a",1,2.5,true,null,{},[]],"view_name":"home_view"}"#)
    }

    @Test func escapesStringsAndKeys() {
        let value: JSONValue = ["line\nbreak": "quote \" backslash \\ tab \t bell \u{07} 中文"]
        #expect(value.jsonText == #"{"line\nbreak":"quote \" backslash \\ tab \t bell \u0007 中文"}"#)
    }

    @Test func numbersReadBackExactly() {
        #expect(JSONValue.int(Int64.min).jsonText == "-9223372036854775808")
        #expect(JSONValue.int(0).jsonText == "0")
        #expect(JSONValue.double(3).jsonText == "3")
        #expect(JSONValue.double(0.1).jsonText == "0.1")
        #expect(JSONValue.double(.infinity).jsonText == "null")
        #expect(JSONValue.double(.nan).jsonText == "null")
    }

    @Test func manyMembersStayOrdered() {
        let members = Dictionary(uniqueKeysWithValues: (0..<40).map { ("k\(1000 + $0)", JSONValue.int(Int64($0))) })
        let text = JSONValue.objectText(members)
        #expect(text.hasPrefix(#"{"k1000":0,"k1001":1,"#))
        #expect(text.hasSuffix(#""k1039":39}"#))
    }

    @Test func theTextIsValidJSON() {
        let value: JSONValue = ["a": ["b": [1, "x\u{01}", -2.5e-8]], "": ""]
        let text = #"{"eventId":"e","timestamp":1,"eventName":"n","sessionId":"s","properties":"# + value.jsonText + "}"
        guard case .success(.observability(let event)) = EventValidator.validate(text) else {
            Issue.record("not a valid observability event: \(text)")
            return
        }
        #expect(event.propertiesJSON == value.jsonText)
    }

    @Test func dictionaryLiteralsSortTheirKeysAndObjectsKeepTheirOrder() {
        let literal: JSONValue = ["b": 1, "a": 2, "b ": ["z": true, "y": nil]]
        #expect(literal == .object([("a", 2), ("b", 1), ("b ", .object([("y", .null), ("z", .bool(true))]))]))
        #expect(literal != .object([("b", 1), ("a", 2), ("b ", ["z": true, "y": nil])]))
        #expect(JSONValue.object(sorting: ["z": 1, "a": 2]) == ["a": 2, "z": 1])
        // The compact text is canonical whatever the members' order; verbatim text goes in as is.
        #expect(JSONValue.object([("b", 1), ("a", .verbatim(#"{"p":[1,2]}"#))]).jsonText == #"{"a":{"p":[1,2]},"b":1}"#)
    }
}
