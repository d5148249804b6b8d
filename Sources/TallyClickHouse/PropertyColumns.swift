import TallyEvents

/// The top-level members of an observability event's `properties`, as the parallel arrays
/// stored beside the object (`prop_keys`, `prop_values`, `prop_numbers`), so that the latency
/// and top reports read `properties.<name>` exactly without JSON functions (ClickHouse 18.16
/// has none that respect nesting): a string's decoded text, a number's text and value, `true`
/// or `false`, and an object's or array's JSON text. A `null` member counts as absent; a
/// repeated key counts once, with its last value.
struct PropertyColumns {
    var keys: [String] = []
    var values: [String] = []
    var numbers: [Double?] = []

    init(json: String) {
        var text = json
        text.withUTF8 { buffer in
            guard case .object(let object)? = try? JSONScanner.scan(UnsafeRawBufferPointer(buffer)) else { return }
            object.forEachMember { key, value in
                switch value.kind {
                case .null:
                    return
                case .string:
                    values.append(value.string ?? "")
                    numbers.append(nil)
                case .number:
                    values.append(value.rawText)
                    // One value per number: -0 is stored as 0, so that they group together.
                    numbers.append(value.double.map { $0 == 0 ? 0 : $0 })
                case .bool, .object, .array:
                    values.append(value.rawText)
                    numbers.append(nil)
                }
                keys.append(key)
            }
        }
    }
}
