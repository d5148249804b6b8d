import Foundation
import TallyEvents
import TallyRender

/// The format of a report's answer over HTTP: JSON unless `format=csv` is given, or the
/// `Accept` header prefers `text/csv` (the first of the highest quality
/// among `text/csv`, `application/json` and `*/*` wins). CSV has the columns of
/// `report … --format csv`.
enum AnswerFormat {
    /// The format asked for by `format=` (`json` or `csv`), else by `accept` (the `Accept`
    /// header's values).
    ///
    /// - Throws: a 400 `INVALID_PARAMETER` for another `format=`.
    static func of(format: String?, accept: [String]) throws -> OutputFormat {
        if let format {
            switch format {
            case "json": return .json
            case "csv": return .csv
            default: throw APIError.invalidParameter("format must be json or csv, got \(JSONText.quote(format)).")
            }
        }
        var best: (format: OutputFormat, quality: Double)?
        for range in accept.flatMap({ $0.split(separator: ",") }) {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let format: OutputFormat
            switch parts.first {
            case "text/csv": format = .csv
            case "application/json", "application/*", "*/*": format = .json
            default: continue
            }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > best?.quality ?? 0 {
                best = (format, quality)
            }
        }
        return best?.format ?? .json
    }
}
