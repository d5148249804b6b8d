import Hummingbird

/// Counts every request in `ServerMetrics`, whatever answers it (a route, an error, a refusal,
/// a CORS preflight): its route, method, status and the time until its answer's head.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where the counts go.
    let metrics: ServerMetrics
    /// A monotonic clock in nanoseconds.
    let clockNs: @Sendable () -> UInt64

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = clockNs()
        let route = RouteMethods.api.route(request.uri.path) ?? "other"
        let method = ServerMetrics.methods.contains(request.method.rawValue) ? request.method.rawValue : "other"
        func count(_ status: Int) {
            let elapsed = clockNs() &- start
            metrics.request(route: route, method: method, status: status, seconds: Double(elapsed) / 1e9)
        }
        do {
            let response = try await next(request, context)
            count(response.status.code)
            return response
        } catch {
            count((error as? any HTTPResponseError)?.status.code ?? 500)
            throw error
        }
    }
}
