import Hummingbird

/// What a bearer token lets its holder do on `report serve` (`--token-file`, `$TALLY_TOKENS`).
public enum TokenScope: String, Sendable, CaseIterable {
    /// The reports, `/learning/users`, `/openapi.json` and `/healthz`'s counts.
    case read
    /// The upload endpoints (every POST).
    case write
    /// Ad hoc SQL at `/sql` (which also needs `--allow-sql`): every row of the store.
    case sql
    /// `GET /metrics`.
    case metrics

    /// The scope a request needs, from its method and path; nil for the two requests anyone may
    /// make: `GET /` (the dashboard page, which holds no data and asks for a token itself) and
    /// `GET /healthz` (which then says only "ok"). Every POST writes; any other request, to a
    /// route or not, needs `read` unless it is for `/sql` or `/metrics`, so that a caller without
    /// the scope learns nothing about which routes exist.
    static func needed(method: HTTPRequest.Method, path: String) -> TokenScope? {
        if method == .post { return .write }
        if (method == .get || method == .head) && (path == "/" || path == "/healthz") { return nil }
        switch path {
        case "/sql": return .sql
        case "/metrics": return .metrics
        default: return .read
        }
    }
}
