import Hummingbird

/// Lets pages from the configured origins (`--cors-origin`, `*` for any) call the API from a
/// browser: answers preflights, and marks answers to allowed origins as readable by them.
struct CORSPolicyMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Allowed origins, such as `http://localhost:3000`; `*` allows any.
    let origins: [String]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], let allowed = allowedValue(for: origin) else {
            return try await next(request, context)
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            return Response(status: .noContent, headers: [
                .accessControlAllowOrigin: allowed, .vary: "Origin",
                .accessControlAllowMethods: "GET, POST, OPTIONS",
                .accessControlAllowHeaders: "Authorization, Content-Type, Content-Encoding, If-None-Match",
                .accessControlMaxAge: "600",
            ])
        }
        var response = try await next(request, context)
        response.headers[.accessControlAllowOrigin] = allowed
        response.headers[.accessControlExposeHeaders] = "ETag"
        response.headers[.vary] = response.headers[.vary].map { $0 + ", Origin" } ?? "Origin"
        return response
    }

    /// The `Access-Control-Allow-Origin` value for `origin`, or nil when it is not allowed.
    private func allowedValue(for origin: String) -> String? {
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }
}
