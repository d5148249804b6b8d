import Hummingbird
import Logging

/// Answers every failure in the JSON error shape of `api.md`: Hummingbird's own errors (404,
/// 413) get a code, another method on a known path is a 405, and an unexpected error is a 500 whose details go to the log only.
struct ErrorJSONMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError where error.status == .notFound && RouteMethods.api.allow(request.uri.path) != nil {
            let allow = RouteMethods.api.allow(request.uri.path) ?? ""
            return try APIError(status: .methodNotAllowed, code: "METHOD_NOT_ALLOWED",
                                message: "\(request.method) is not allowed here; use \(allow).", headers: [.allow: allow])
                .response(from: request, context: context)
        } catch let error as HTTPError {
            return try APIError(status: error.status, code: Self.code(error.status),
                                message: error.body ?? "\(error.status.reasonPhrase).", headers: error.headers)
                .response(from: request, context: context)
        } catch {
            context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            return try APIError.internalError.response(from: request, context: context)
        }
    }

    /// The code of a status Hummingbird itself answers.
    static func code(_ status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "NOT_FOUND"
        case .methodNotAllowed: "METHOD_NOT_ALLOWED"
        case .contentTooLarge: "BODY_TOO_LARGE"
        case .badRequest: "BAD_REQUEST"
        default: status.code >= 500 ? "INTERNAL" : "HTTP_\(status.code)"
        }
    }
}
