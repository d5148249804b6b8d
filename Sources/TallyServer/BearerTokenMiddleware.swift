import Hummingbird

/// With tokens configured, every request but `GET /` and `GET /healthz` must carry
/// `Authorization: Bearer <token>` of a token holding the scope it needs
/// (`TokenScope.needed`): without a known token it is one and the same 401, whatever was wrong;
/// with a token that lacks the scope, a 403 naming the scope. CORS preflights of allowed origins
/// never get here (`CORSPolicyMiddleware` answers them first).
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The known tokens.
    let tokens: [AccessToken]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let needed = TokenScope.needed(method: request.method, path: request.uri.path) else {
            return try await next(request, context)
        }
        guard let scopes = Self.scopes(of: request, among: tokens) else {
            throw APIError(status: .unauthorized, code: "UNAUTHORIZED", message: "A valid bearer token is required.",
                           headers: [.wwwAuthenticate: "Bearer realm=\"tally\""])
        }
        guard scopes.contains(needed) else {
            throw APIError(status: .forbidden, code: "INSUFFICIENT_SCOPE", message: "This token does not have the \(needed.rawValue) scope.",
                           headers: [.wwwAuthenticate: "Bearer realm=\"tally\", error=\"insufficient_scope\", scope=\"\(needed.rawValue)\""])
        }
        return try await next(request, context)
    }

    /// The scopes of the token `request` presents (`Authorization: Bearer …`), or nil when it
    /// presents none of `tokens`. Every token is compared in full, each in time that depends on
    /// the lengths only, so the time taken does not tell which bytes or which token matched.
    static func scopes(of request: Request, among tokens: [AccessToken]) -> Set<TokenScope>? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let candidate = Array(parts[1].utf8)
        var found: Set<TokenScope>?
        for token in tokens where matches(candidate, token.secret) {
            found = token.scopes
        }
        return found
    }

    private static func matches(_ candidate: [UInt8], _ secret: [UInt8]) -> Bool {
        guard candidate.count == secret.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(candidate, secret) {
            difference |= a ^ b
        }
        return difference == 0
    }
}
