import Foundation
import TallyQuery

/// The documented aggregates as SQL files (`queries/*.sql`), loaded from the module's resources:
/// the CLI, the server and `report query` run the very same text.
public enum QueryLibrary {
    /// The SQL of `queries/NAME.sql`.
    public static func sql(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "sql", subdirectory: "queries") else {
            throw QueryError.unknownQuery(name)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Names of every bundled query, sorted.
    public static var names: [String] {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("queries"),
              let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return files.filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()
    }
}
