import TallyEvents

/// Test helpers: scan JSON held in a byte array and look at it inside the buffer's lifetime.
enum ScannedJSON {
    /// The syntax error scanning `bytes` gives, or `nil` when they are valid JSON.
    static func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        bytes.withUnsafeBytes { raw -> JSONSyntaxError? in
            do throws(JSONSyntaxError) {
                _ = try JSONScanner.scan(raw)
                return nil
            } catch {
                return error
            }
        }
    }

    /// The syntax error scanning `text` gives, or `nil` when it is valid JSON.
    static func syntaxError(_ text: String) -> JSONSyntaxError? {
        syntaxError(Array(text.utf8))
    }

    /// `body` applied to the scanned document of `text`; `nil` when `text` is not valid JSON.
    static func withDocument<T>(_ text: String, _ body: (JSONDocument) -> T) -> T? {
        Array(text.utf8).withUnsafeBytes { raw in
            (try? JSONScanner.scan(raw)).map(body)
        }
    }

    /// `body` applied to the scanned object `text`; `nil` when `text` is not a valid JSON object.
    static func withObject<T>(_ text: String, _ body: (JSONObjectView) -> T) -> T? {
        withDocument(text) { document -> T? in
            guard case .object(let object) = document else { return nil }
            return body(object)
        } ?? nil
    }

    /// `body` applied to the value of member `v` of `{"v": text}`.
    static func withValue<T>(_ text: String, _ body: (JSONValueView) -> T) -> T? {
        withObject("{\"v\":\(text)}") { object in object["v"].map(body) } ?? nil
    }
}
