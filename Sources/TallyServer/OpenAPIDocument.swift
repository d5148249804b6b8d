import TallyEvents
import TallyQuery
import TallyRender

/// The OpenAPI document `GET /openapi.json` serves, produced rather than kept by hand: the
/// endpoints of `Resources/openapi-base.json` (uploads, dashboard, health, SQL and the shared
/// components) after one path per report endpoint of `ReportCatalog`, generated from its
/// definition. Laid out one member a line, one-space indents.
enum OpenAPIDocument {
    /// The document: `base` with the reports' paths first in its `paths`.
    static func text(base: String, reports: [ReportDefinition] = ReportCatalog.all) -> String {
        let marker = "\"paths\": {\n"
        guard let range = base.range(of: marker) else { return base }
        var out = String(base[..<range.upperBound])
        for definition in reports {
            guard let endpoint = definition.endpoint else { continue }
            out += "  " + JSONText.quote(endpoint.path) + ": "
            write(pathItem(definition, endpoint), depth: 2, into: &out)
            out += ",\n"
        }
        return out + base[range.upperBound...]
    }

    /// The path item of a report: one GET operation.
    static func pathItem(_ definition: ReportDefinition, _ endpoint: ReportDefinition.Endpoint) -> JSONValue {
        func reference(_ target: String) -> JSONValue { .object([("$ref", .string(target))]) }
        let ok: JSONValue = .object([
            ("description", .string(endpoint.summary)),
            ("headers", .object([("ETag", reference("#/components/headers/ETag")),
                                 ("Cache-Control", reference("#/components/headers/CacheControl"))])),
            ("content", .object([("application/json", .object([("schema", reference("#/components/schemas/" + endpoint.schema))])),
                                 ("text/csv", .object([("schema", .object([("type", .string("string"))]))]))])),
        ])
        var responses: [(key: String, value: JSONValue)] = [
            ("200", ok),
            ("304", .object([("description", .string("The client's copy (If-None-Match) is current."))])),
            ("400", reference("#/components/responses/Error")),
            ("401", reference("#/components/responses/Error")),
            ("403", reference("#/components/responses/Error")),
        ]
        if let notFound = endpoint.notFound {
            responses.append(("404", .object([("description", .string(notFound)),
                                              ("content", .object([("application/json", .object([("schema", reference("#/components/schemas/Error"))]))]))])))
        }
        return .object([("get", .object([
            ("operationId", .string(endpoint.operationId)),
            ("summary", .string(endpoint.summary)),
            ("parameters", .array(contextParameters + definition.parameters.map(parameter) + [formatParameter])),
            ("responses", .object(responses)),
        ]))])
    }

    /// `user`, `now` and `tz`, which every report takes.
    static let contextParameters: [JSONValue] = [
        query("user", required: false, "Only this user's events (default: all users together).",
              schema: [("type", .string("string")), ("maxLength", .int(Int64(ReadRequest.maxUserLength))),
                       ("pattern", .string("^[^\\u0000-\\u001F\\u007F-\\u009F]*$"))]),
        query("now", required: false, "The current instant: ISO-8601 or milliseconds since the epoch (default: the server's clock).",
              schema: [("anyOf", .array([
                  .object([("type", .string("string")), ("format", .string("date-time"))]),
                  .object([("type", .string("string")), ("pattern", .string("^-?[0-9]{1,13}$"))]),
              ]))]),
        query("tz", required: false, "The report's zone as ±HH:MM, -12:00 to +14:00 (default: the user's latest offset, else UTC).",
              schema: [("type", .string("string")),
                       ("pattern", .string("^([+-](0[0-9]|1[0-1]):[0-5][0-9]|[+-]12:00|\\+1[2-3]:[0-5][0-9]|\\+14:00)$"))]),
    ]

    /// `format`, which every report takes: `csv` answers the CSV of `report … --format csv`.
    static let formatParameter = query("format", required: false,
                                       "json, or csv for the columns of report … --format csv (default: json, or csv when Accept prefers text/csv).",
                                       schema: [("type", .string("string")), ("enum", .array([.string("json"), .string("csv")])), ("default", .string("json"))])

    /// A report parameter's OpenAPI parameter object, its schema from its kind.
    static func parameter(_ parameter: ReportDefinition.Parameter) -> JSONValue {
        let string: (key: String, value: JSONValue) = ("type", .string("string"))
        func integer(_ range: ClosedRange<Int>, _ defaultValue: Int) -> JSONValue {
            query(parameter.name, required: false, parameter.description,
                  schema: [("type", .string("integer")), ("minimum", .int(Int64(range.lowerBound))),
                           ("maximum", .int(Int64(range.upperBound))), ("default", .int(Int64(defaultValue)))])
        }
        switch parameter.kind {
        case .days(let defaultValue):
            return integer(ReportDefinition.Parameter.Kind.dayRange, defaultValue)
        case .integer(let range, let defaultValue):
            return integer(range, defaultValue)
        case .choice(let values, let defaultValue, _):
            return query(parameter.name, required: false, parameter.description,
                         schema: [string, ("enum", .array(values.map { .string($0) })), ("default", .string(defaultValue))])
        case .text(let required, _):
            // An optional text parameter given empty counts as absent, so the empty value is valid.
            return query(parameter.name, required: required, parameter.description, schema: required ? [string, ("minLength", .int(1))] : [string])
        case .pattern(let pattern, _):
            return query(parameter.name, required: false, parameter.description, schema: [string, ("pattern", .string(pattern))])
        case .path:
            return query(parameter.name, in: "path", required: true, parameter.description, schema: [string, ("minLength", .int(1))])
        }
    }

    private static func query(_ name: String, in location: String = "query", required: Bool, _ description: String,
                              schema: [(key: String, value: JSONValue)]) -> JSONValue {
        .object([("name", .string(name)), ("in", .string(location)), ("required", .bool(required)),
                 ("description", .string(description)), ("schema", .object(schema))])
    }

    /// `value` laid out one member or element a line, indented one space per level below `depth`.
    private static func write(_ value: JSONValue, depth: Int, into out: inout String) {
        func container<Element>(_ elements: [Element], _ open: String, _ close: String, _ element: (Element) -> Void) {
            guard !elements.isEmpty else { out += open + close; return }
            out += open + "\n"
            for (index, item) in elements.enumerated() {
                out += String(repeating: " ", count: depth + 1)
                element(item)
                out += index == elements.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: depth) + close
        }
        switch value {
        case .array(let elements):
            container(elements, "[", "]") { write($0, depth: depth + 1, into: &out) }
        case .object(let members):
            container(members, "{", "}") { member in
                out += JSONText.quote(member.key) + ": "
                write(member.value, depth: depth + 1, into: &out)
            }
        default:
            out += value.text
        }
    }
}
