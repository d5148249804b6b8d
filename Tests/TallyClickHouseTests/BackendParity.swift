import Foundation
import TallyClickHouse
import TallyQuery
import TallyRender
import TallySQLite
import XCTest

/// Asks two backends holding the same events every report, in every variant, and compares
/// the answers by value.
enum BackendParity {
    static let now: Int64 = 1_795_176_000_000 // 2026-11-20T12:00:00Z

    /// A SQLite store in `folder` holding `files`.
    static func sqlite(_ files: [String], in folder: URL) throws -> SQLiteReports {
        let store = try EventStore(path: folder.appendingPathComponent("parity.sqlite").path)
        let ingestor = try Ingestor(store: store)
        for file in files { _ = try ingestor.ingest(file: file, onRejection: { _, _ in }) }
        return SQLiteReports(store: store)
    }

    static func assertSame(_ expected: any ReportBackend, _ actual: any ReportBackend,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        func same<T: Equatable>(_ name: String, _ body: (any ReportBackend) throws -> T) throws {
            XCTAssertEqual(try body(actual), try body(expected), name, file: file, line: line)
        }
        let users = try expected.adHoc("SELECT DISTINCT user_id FROM reading_events ORDER BY 1", parameters: [:], interrupter: nil).rows
            .compactMap { row -> String? in if case .text(let user) = row[0] { return user } else { return nil } }
        let materials = try expected.adHoc("SELECT DISTINCT material_id FROM reading_events ORDER BY 1 LIMIT 3", parameters: [:], interrupter: nil).rows
            .compactMap { row -> String? in if case .text(let material) = row[0] { return material } else { return nil } }
        XCTAssertFalse(users.isEmpty, file: file, line: line)
        let models = try expected.dislikeRate(DislikeGrouping(byModel: true, byPosition: false), topReasons: 0, user: nil, filter: FeedFilter())
        guard case .text(let baseline) = models.rows.first?.first else { return XCTFail("no model to compare against", file: file, line: line) }
        for user in [nil] + users.map(Optional.some) {
            for tz in [nil, -300, 840] {
                let context = ReportContext(user: user, nowMs: now, timezoneOffsetMinutes: tz)
                try same("summary \(user ?? "all") \(tz ?? 0)") { try $0.summary(context) }
                try same("trend \(user ?? "all")") { try $0.trend(context, days: 30) }
                try same("heatmap \(user ?? "all")") { try $0.heatmap(context, days: 365) }
                try same("continue \(user ?? "all")") { try $0.continueLearning(context) }
                for definition in ReportCatalog.all where definition.rows != nil {
                    var arguments = definition.defaultArguments
                    if definition.parameters.contains(where: { $0.name == "days" }) { arguments[int: "days"] = 60 }
                    try same("\(definition.name) \(user ?? "all")") {
                        try ReportCatalog.report(definition.name, on: $0, context: context, arguments: arguments)
                    }
                }
                for material in materials + ["never-read"] {
                    try same("progress \(user ?? "all") \(material)") { try $0.progress(context, materialId: material) }
                }
            }
            let filters = [FeedFilter(), try FeedFilter.parse(from: "2026-10-20", to: "2026-11-10", platform: nil, appVersion: nil),
                           FeedFilter(platform: "android"), FeedFilter(appVersion: "3.1.0")]
            let groupings = [DislikeGrouping(), DislikeGrouping(byModel: true, byPosition: false),
                             DislikeGrouping(byModel: false, byPosition: true),
                             DislikeGrouping(buckets: try DislikeGrouping.buckets("0-2,3-5,7-"))]
            for filter in filters {
                for grouping in groupings {
                    try same("dislike-rate \(user ?? "all") \(grouping) \(filter)") {
                        try $0.dislikeRate(grouping, topReasons: 3, user: user, filter: filter)
                    }
                }
                for by in ExposureGrouping.allCases {
                    try same("exposures \(by) \(user ?? "all") \(filter)") { try $0.exposures(by: by, user: user, filter: filter) }
                }
                for grouping in [DislikeGrouping(byModel: true, byPosition: false), DislikeGrouping(), groupings[3]] {
                    try same("compare \(user ?? "all") \(grouping) \(filter)") {
                        try? $0.compare(baseline: baseline, grouping: grouping, user: user, filter: filter)
                    }
                }
            }
            for by in ["app_version", "appVersion", "view_name"] {
                try same("latency \(by) \(user ?? "all")") {
                    try $0.latency(event: "view_loaded", field: "load_duration_ms", by: by, user: user)
                }
            }
            for by in ["userId", "sessionId", "platform", "appVersion", "status_code"] {
                try same("top \(by) \(user ?? "all")") { try $0.top(event: "api_request_failed", by: by, limit: 5, user: user) }
            }
        }
    }
}
