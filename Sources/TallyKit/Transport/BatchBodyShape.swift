/// How a destination wants a batch's events in the request body (`api.md`, "Write side").
public enum BatchBodyShape: Sendable, Equatable {
    /// `{"events":[e1,e2]}`: `POST /learning/reading-events/batch`.
    case eventsObject
    /// `[e1,e2]`: `POST /v1/feedback/batch`.
    case array
    /// One event a line: `POST /events`, ClickHouse's `JSONEachRow`, files.
    case ndjson

    /// The body for a batch's NDJSON.
    public func body(fromNDJSON ndjson: [UInt8]) -> [UInt8] {
        let (open, close): ([UInt8], [UInt8])
        switch self {
        case .ndjson: return ndjson
        case .eventsObject: (open, close) = (Array(#"{"events":["#.utf8), Array("]}".utf8))
        case .array: (open, close) = ([UInt8(ascii: "[")], [UInt8(ascii: "]")])
        }
        var body = open
        body.reserveCapacity(ndjson.count + open.count + close.count)
        for (index, line) in NDJSONLines.ranges(in: ndjson).enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: ndjson[line])
        }
        body += close
        return body
    }
}
