import Hummingbird
import TallyEvents

/// An answer other than 2xx, in the JSON shape of `api.md`:
/// `{"error": {"code": "INVALID_PARAMETER", "message": "…"}}`.
struct APIError: Error, HTTPResponseError {
    /// The HTTP status.
    var status: HTTPResponse.Status
    /// A stable, machine-readable code.
    var code: String
    /// One sentence for people; never holds secrets or internals.
    var message: String
    /// Extra headers, such as `WWW-Authenticate`.
    var headers: HTTPFields = [:]

    /// A bad query parameter (400).
    static func invalidParameter(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "INVALID_PARAMETER", message: message)
    }

    /// A body that cannot be read as events at all (400).
    static func invalidBody(_ message: String) -> APIError {
        APIError(status: .badRequest, code: "INVALID_BODY", message: message)
    }

    /// The server's own fault (500); the details go to the log, not the client.
    static let internalError = APIError(status: .internalServerError, code: "INTERNAL", message: "The server failed to answer; try again.")

    /// The JSON body.
    var json: String {
        "{\"error\":{\"code\":\(JSONText.quote(code)),\"message\":\(JSONText.quote(message))}}\n"
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }
}
