import TallyQuery
import TallyRender

/// The methods each path of the API takes, so that another method on a known path is a 405
/// naming them (`Allow`) rather than a 404.
struct RouteMethods: Sendable {
    private let routes: [(segments: [Substring], allow: String)]

    /// Paths (`{name}` for a path parameter) and their methods, such as `("/", "GET, POST")`.
    init(_ routes: [(String, String)]) {
        self.routes = routes.map { ($0.0.split(separator: "/", omittingEmptySubsequences: false), $0.1) }
    }

    /// The `Allow` value of `path`, or nil when no route has it.
    func allow(_ path: String) -> String? {
        matching(path)?.allow
    }

    /// The path template of the route of `path`, such as `/materials/{materialId}/reading-progress`.
    func route(_ path: String) -> String? {
        matching(path).map { $0.segments.joined(separator: "/") }
    }

    private func matching(_ path: String) -> (segments: [Substring], allow: String)? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return routes.first { route in
            route.segments.count == segments.count
                && zip(route.segments, segments).allSatisfy { template, segment in
                    template == segment || (template.hasPrefix("{") && !segment.isEmpty)
                }
        }
    }

    /// The routes of `TallyServer.router()`: every report endpoint of `ReportCatalog`, and the rest.
    static let api = RouteMethods(
        [("/", "GET, POST"), ("/openapi.json", "GET"), ("/healthz", "GET"), ("/metrics", "GET")]
            + ReportCatalog.all.compactMap { $0.endpoint.map { ($0.path, "GET") } }
            + [("/learning/users", "GET"), ("/sql", "GET"),
               ("/learning/reading-events/batch", "POST"), ("/v1/feedback/batch", "POST"), ("/events", "POST")])
}
