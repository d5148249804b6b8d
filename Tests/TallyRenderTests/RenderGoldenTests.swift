// Golden-file tests of TallyRender: every report in every format, compared byte for byte with
// the files in Golden/ (open them to judge the output; `cat` the *-color files in a terminal).
//
// To rewrite the golden files from the current output, then review the diff:
//
//     TALLY_UPDATE_GOLDEN=1 swift test --filter TallyRenderTests

import Foundation
import Testing
import TallyQuery
@testable import TallyRender

@Suite struct RenderGoldenTests {
    let plain = Renderer(color: false)

    @Test func summary() throws {
        try Golden.check(plain.render(Samples.summary, as: .table), "summary.table.txt")
        try Golden.check(plain.render(Samples.summary, as: .json), "summary.json")
        try Golden.check(plain.render(Samples.summary, as: .csv), "summary.csv")
        try Golden.check(plain.render(Samples.emptySummary, as: .json), "summary-empty.json")
    }

    @Test func trend() throws {
        try Golden.check(plain.render(Samples.trend, as: .table), "trend.table.txt")
        try Golden.check(plain.render(Samples.trend, as: .json), "trend.json")
        try Golden.check(plain.render(Samples.trend, as: .csv), "trend.csv")
    }

    @Test func heatmapCalendars() throws {
        try Golden.check(Renderer(color: false, weekStart: .sunday).render(Samples.heatmap, as: .table), "heatmap-sunday.txt")
        try Golden.check(Renderer(color: false, weekStart: .monday).render(Samples.heatmap, as: .table), "heatmap-monday.txt")
        try Golden.check(Renderer(color: true, weekStart: .sunday).render(Samples.heatmap, as: .table), "heatmap-sunday-color.txt")
    }

    @Test func heatmapData() throws {
        try Golden.check(plain.render(Samples.heatmap, as: .json), "heatmap.json")
        try Golden.check(plain.render(Samples.heatmap, as: .csv), "heatmap.csv")
    }

    @Test func continueLearning() throws {
        try Golden.check(plain.render(Samples.continueLearning, as: .table), "continue.table.txt")
        try Golden.check(plain.render(Samples.continueLearning, as: .json), "continue.json")
        try Golden.check(plain.render(Samples.continueLearning, as: .csv), "continue.csv")
        try Golden.check(plain.render(nil as ContinueLearning?, as: .json), "continue-none.json")
        try Golden.check(plain.render(nil as ContinueLearning?, as: .table), "continue-none.table.txt")
    }

    @Test func readingProgress() throws {
        try Golden.check(plain.render(Samples.progress, as: .table), "progress.table.txt")
        try Golden.check(plain.render(Samples.progress, as: .json), "progress.json")
        try Golden.check(plain.render(Samples.notStarted, as: .json), "progress-not-started.json")
    }

    @Test func ingest() throws {
        try Golden.check(plain.render(Samples.ingest, as: .table), "ingest.table.txt")
        try Golden.check(plain.render(Samples.ingest, as: .json), "ingest.json")
    }

    @Test func groupedReports() throws {
        try Golden.check(plain.render(Samples.dislikeRate, as: .table), "dislike-rate.table.txt")
        try Golden.check(plain.render(Samples.dislikeRate, as: .json), "dislike-rate.json")
        try Golden.check(plain.render(Samples.dislikeRate, as: .csv), "dislike-rate.csv")
        try Golden.check(plain.render(Samples.latency, as: .table), "latency.table.txt")
        try Golden.check(Renderer(color: true).render(Samples.latency, as: .table), "latency-color.table.txt")
        try Golden.check(plain.render(GroupedReport(columns: Samples.latency.columns, rows: []), as: .table), "no-rows.table.txt")
    }

    /// The comparison's table: a forest plot on a shared axis, the verdict in words, the
    /// warnings; JSON and CSV carry every field.
    @Test func modelComparison() throws {
        try Golden.check(plain.render(comparison: Samples.comparison, baseline: "rec-v12", as: .table), "compare.table.txt")
        try Golden.check(Renderer(color: true).render(comparison: Samples.comparison, baseline: "rec-v12", as: .table), "compare-color.table.txt")
        try Golden.check(plain.render(comparison: Samples.comparison, baseline: "rec-v12", as: .json), "compare.json")
        try Golden.check(plain.render(comparison: Samples.comparison, baseline: "rec-v12", as: .csv), "compare.csv")
        let text = plain.render(comparison: Samples.comparison, baseline: "rec-v12", as: .table)
        #expect(text.contains("higher: interval excludes 0"))
        #expect(text.contains("unclear: interval includes 0"))
        #expect(text.contains("warning: rec-v11, rec-v13, rec-v14, rec-v15 served on other dates than rec-v12"))
        #expect(text.contains("fewer than 30 users"))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func wideTextAligns() throws {
        try Golden.check(plain.render(Samples.wideText, as: .table), "wide-text.table.txt")
    }

    @Test func csvQuoting() throws {
        try Golden.check(plain.render(Samples.csvQuoting, as: .csv), "csv-quoting.csv")
    }

    @Test func jsonEscaping() throws {
        try Golden.check(plain.render(Samples.jsonEscaping, as: .json), "json-escaping.json")
        try Golden.check(plain.render(Samples.jsonEscaping, as: .table), "json-escaping.table.txt")
    }

    /// NDJSON: one compact object a line, members in the order of `--format json`: a row of a
    /// grouped report, a day of the trend and the heatmap, the one object of a flat answer.
    @Test func ndjson() throws {
        try Golden.check(plain.render(Samples.summary, as: .ndjson), "summary.ndjson")
        try Golden.check(plain.render(Samples.emptySummary, as: .ndjson), "summary-empty.ndjson")
        try Golden.check(plain.render(Samples.trend, as: .ndjson), "trend.ndjson")
        try Golden.check(plain.render(Samples.heatmap, as: .ndjson), "heatmap.ndjson")
        try Golden.check(plain.render(Samples.continueLearning, as: .ndjson), "continue.ndjson")
        try Golden.check(plain.render(nil as ContinueLearning?, as: .ndjson), "continue-none.ndjson")
        try Golden.check(plain.render(Samples.progress, as: .ndjson), "progress.ndjson")
        try Golden.check(plain.render(Samples.notStarted, as: .ndjson), "progress-not-started.ndjson")
        try Golden.check(plain.render(Samples.ingest, as: .ndjson), "ingest.ndjson")
        try Golden.check(plain.render(Samples.dislikeRate, as: .ndjson), "dislike-rate.ndjson")
        try Golden.check(plain.render(Samples.latency, as: .ndjson), "latency.ndjson")
        try Golden.check(plain.render(Samples.jsonEscaping, as: .ndjson), "json-escaping.ndjson")
    }

    @Test func readableNumbers() throws {
        let seconds = [0, 1, 45, 59, 60, 61, 725, 3_599, 3_600, 3_660, 4_980, 86_399, 86_400, 183_600, 187_102, 31_536_000]
        let ratios = [0, 0.0004, 0.0005, 0.08333333333333333, 0.125, 0.999, 1, 2.5]
        let milliseconds = [0, 407, 407.25, 407.96, 13_588]
        let changes = [(7_754, 11_293), (100, 112), (100, 88), (100, 100), (1_000, 1_004), (0, 0), (0, 60)]
        let text = "duration (seconds)\n" + seconds.map { "  \($0) → \(Readable.duration(seconds: $0))\n" }.joined()
            + "\npercent (ratio)\n" + ratios.map { "  \($0) → \(Readable.percent($0))\n" }.joined()
            + "\nmilliseconds\n" + milliseconds.map { "  \($0) → \(Readable.milliseconds($0))\n" }.joined()
            + "\nchange (previous → current)\n" + changes.map { "  \($0) → \($1): \(Readable.change(from: $0, to: $1))\n" }.joined()
        try Golden.check(text, "readable-numbers.txt")
    }
}
