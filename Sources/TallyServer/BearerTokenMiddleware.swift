import Hummingbird

/// With a token configured, every request but `GET /healthz` and CORS preflights must carry
/// `Authorization: Bearer <token>`; anything else is one and the same 401, whatever was wrong.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The token's bytes.
    let token: [UInt8]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path == "/healthz" || request.method == .options || presented(request).map(matches) == true {
            return try await next(request, context)
        }
        throw APIError(status: .unauthorized, code: "UNAUTHORIZED", message: "A valid bearer token is required.",
                       headers: [.wwwAuthenticate: "Bearer realm=\"tally\""])
    }

    /// The credentials of `Authorization: Bearer …`, if any.
    private func presented(_ request: Request) -> [UInt8]? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return Array(parts[1].utf8)
    }

    /// Compares in time that depends on the lengths only, not on where the bytes differ.
    private func matches(_ candidate: [UInt8]) -> Bool {
        guard candidate.count == token.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(candidate, token) {
            difference |= a ^ b
        }
        return difference == 0
    }
}
