import TallyEvents
import TallyIngest
import TallyQuery
import TallySQLite
import TallyTestSupport

/// Report values built by hand, with no clock: the inputs of the golden tests.
enum Samples {
    /// The last day of every window: a Friday.
    static let today = LocalDate(year: 2026, month: 11, day: 20)!

    /// 2026-11-20T08:31:02.461Z.
    static let instant: Int64 = 1_795_163_462_461

    static let summary = LearningSummary(
        totalActiveSeconds: 187_102, todayActiveSeconds: 443, weekActiveSeconds: 3_172, activeDays: 270,
        currentStreakDays: 1, longestStreakDays: 189, materialsStarted: 8, materialsCompleted: 3, lastActiveAt: instant)

    /// A store with nothing read yet.
    static let emptySummary = LearningSummary(
        totalActiveSeconds: 0, todayActiveSeconds: 0, weekActiveSeconds: 0, activeDays: 0,
        currentStreakDays: 0, longestStreakDays: 0, materialsStarted: 0, materialsCompleted: 0, lastActiveAt: nil)

    /// Fourteen days: quiet ones, a tiny one (3 s, still a sliver of bar), a long one.
    static let trend: TrendReport = {
        let seconds = [0, 122, 146, 33, 3_700, 265, 0, 3, 1_250, 2_400, 900, 61, 0, 443]
        let materials = [0, 1, 1, 1, 3, 2, 0, 1, 2, 2, 1, 1, 0, 2]
        let days = seconds.indices.map { index in
            TrendReport.Day(date: today.adding(days: index - seconds.count + 1), activeSeconds: seconds[index], materials: materials[index])
        }
        return TrendReport(days: days, totalActiveSeconds: seconds.reduce(0, +), previousPeriodActiveSeconds: 7_754)
    }()

    /// A year of reading: most weekdays, fewer weekends, a break in August; levels and
    /// thresholds computed as `metrics.md` defines them.
    static let heatmap: HeatmapReport = {
        var random = SplitMix64(seed: 20_261_120)
        let dates = (0..<365).map { today.adding(days: $0 - 364) }
        let seconds = dates.map { date -> Int in
            let (_, month, day) = date.components
            let onBreak = month == 8 && (5...25).contains(day)
            let weekend = date.weekday == 0 || date.weekday == 6
            let reads = !onBreak && random.next() % 100 < (weekend ? 30 : 75)
            return reads ? Int(60 + random.next() % 2_400) : 0
        }
        let active = seconds.filter { $0 > 0 }.sorted()
        let n = active.count
        let thresholds = [active[(n - 1) / 4], active[(n - 1) / 2], active[3 * (n - 1) / 4]]
        let days = zip(dates, seconds).map { date, value in
            HeatmapReport.Day(date: date, activeSeconds: value,
                              level: value == 0 ? 0 : 1 + thresholds.filter { value > $0 }.count)
        }
        return HeatmapReport(days: days, activeDays: n, maxActiveSeconds: active.last ?? 0, thresholds: thresholds)
    }()

    static let continueLearning = ContinueLearning(
        materialId: "m-00", title: "线性代数 \"第二版\"", type: "knowledge_source",
        lastPosition: MaterialPosition(json: #"{"page":1,"pageCount":5}"#, progress: 0.2), lastReadAt: instant)

    static let progress = ReadingProgress(
        materialId: "m-01", status: .inProgress,
        lastPosition: MaterialPosition(json: #"{"page":21,"pageCount":36,"chapter":"第三章"}"#, progress: 0.5833333333333334),
        totalActiveSeconds: 6_182, lastReadAt: 1_795_081_409_479)

    static let notStarted = ReadingProgress(materialId: "m-99", status: .notStarted, lastPosition: nil, totalActiveSeconds: 0, lastReadAt: nil)

    static let ingest = IngestCounts(accepted: 20_253, duplicates: 240, rejected: 17)

    /// The dislike rate by model and position, as the acceptance data gives it.
    static let dislikeRate = GroupedReport(
        columns: [
            ReportColumn("modelInfo", role: .key), ReportColumn("feedPosition", role: .key),
            ReportColumn("exposures", role: .count), ReportColumn("likes", role: .count), ReportColumn("dislikes", role: .count),
            ReportColumn("dislikeRate", role: .ratio), ReportColumn("dislikeRateLow", role: .ratio),
            ReportColumn("dislikeRateHigh", role: .ratio), ReportColumn("feedbackWithoutExposure", role: .count),
            ReportColumn("topReasons", role: .measure),
        ],
        rows: [
            [.text("rec-v11"), .int(0), .int(36), .int(7), .int(3), .double(0.08333333333333333),
             .double(0.028748089271291792), .double(0.21827010276918848), .int(1), .json(#"[{"reason":"重复看到","count":2}]"#)],
            [.text("rec-v11"), .int(12), .int(140), .int(21), .int(0), .double(0), .double(0), .double(0.026726), .int(0), .json("[]")],
            [.text("rec-v12"), .int(3), .int(0), .int(0), .int(0), .null, .null, .null, .int(0), .json("[]")],
            [.null, .int(5), .int(9), .int(1), .int(9), .double(1), .double(0.7008), .double(1), .int(2),
             .json(#"[{"reason":"不感兴趣","count":5},{"reason":"clickbait, again","count":4}]"#)],
        ])

    /// The model comparison against rec-v12, as the feed acceptance data gives it, and a model
    /// with one user (no interval).
    static let comparison = GroupedReport(
        columns: [ReportColumn("modelInfo", role: .key), ReportColumn("users", role: .count), ReportColumn("exposures", role: .count), ReportColumn("dislikes", role: .count), ReportColumn("dislikeRate", role: .ratio), ReportColumn("dislikeRateLow", role: .ratio), ReportColumn("dislikeRateHigh", role: .ratio), ReportColumn("firstDate", role: .measure), ReportColumn("lastDate", role: .measure), ReportColumn("difference", role: .ratio), ReportColumn("differenceLow", role: .ratio), ReportColumn("differenceHigh", role: .ratio), ReportColumn("relativeDifference", role: .ratio), ReportColumn("pValue", role: .measure), ReportColumn("sharedUsers", role: .count)],
        rows: [
            [.text("rec-v11"), .int(3), .int(334), .int(49), .double(0.1467065868263473), .double(0.1405078854280829), .double(0.1529052882246117), .text("2026-10-21"), .text("2026-11-20"), .double(0.06681677966381286), .double(0.04330277967619134), .double(0.09033077965143438), .double(0.8363617592401402), .double(2.5549226579178903e-08), .int(3)],
            [.text("rec-v12"), .int(19), .int(1089), .int(87), .double(0.07988980716253444), .double(0.05720756088062885), .double(0.10257205344444002), .text("2026-09-21"), .text("2026-11-20"), .null, .null, .null, .null, .null, .null],
            [.text("rec-v13"), .int(7), .int(360), .int(68), .double(0.18888888888888888), .double(0.16452912307892062), .double(0.21324865469885715), .text("2026-09-25"), .text("2026-11-19"), .double(0.10899908172635445), .double(0.0757142129913043), .double(0.14228395046140457), .double(1.3643678160919537), .double(1.3764342637132203e-10), .int(7)],
            [.text("rec-v14"), .int(16), .int(423), .int(27), .double(0.06382978723404255), .double(0.03158006565584321), .double(0.09607950881224189), .text("2026-10-17"), .text("2026-11-20"), .double(-0.01606001992849189), .double(-0.055487533650059415), .double(0.023367493793075636), .double(-0.20102714600146743), .double(0.4246573532304622), .int(16)],
            [.text("rec-v15"), .int(1), .int(20), .int(2), .double(0.1), .null, .null, .text("2026-11-19"), .text("2026-11-20"), .double(0.02011019283746556), .null, .null, .double(0.2517241379310344), .null, .int(1)],
        ])

    /// Latency percentiles in milliseconds.
    static let latency = GroupedReport(
        columns: [
            ReportColumn("app_version", role: .key), ReportColumn("count", role: .count), ReportColumn("p50", role: .milliseconds),
            ReportColumn("p90", role: .milliseconds), ReportColumn("p99", role: .milliseconds), ReportColumn("max", role: .milliseconds),
        ],
        rows: [
            [.text("2.1.0"), .int(677), .int(407), .int(894), .int(1_402), .int(1_707)],
            [.text("2.2.0"), .int(675), .double(408.5), .int(844), .int(1_789), .int(13_588)],
            [.text("2.3.0-beta.1"), .int(3), .double(12), .double(40.25), .null, .int(41)],
        ])

    /// Wide (CJK, fullwidth, emoji) and zero-width (combining marks) text among narrow text.
    static let wideText = GroupedReport(
        columns: [ReportColumn("reason", role: .key), ReportColumn("lang", role: .key),
                  ReportColumn("dislikes", role: .count), ReportColumn("share", role: .ratio)],
        rows: [
            [.text("重复看到"), .text("zh"), .int(120), .double(0.4)],
            [.text("内容质量差 👎"), .text("zh"), .int(75), .double(0.25)],
            [.text("日本語のタイトル 🇯🇵"), .text("ja"), .int(36), .double(0.12)],
            [.text("한국어 제목"), .text("ko"), .int(30), .double(0.1)],
            [.text("ＦＵＬＬＷＩＤＴＨ"), .text("全角"), .int(15), .double(0.05)],
            [.text("cafe\u{301} cre\u{300}me"), .text("fr"), .int(9), .double(0.03)],
            [.text("😀 🎉 👍🏽 emoji"), .text("emoji"), .int(9), .double(0.03)],
            [.text("plain ascii"), .null, .int(6), .double(0.02)],
        ])

    /// Text that CSV must quote, and values CSV writes specially.
    static let csvQuoting = GroupedReport(
        columns: [ReportColumn("case", role: .key), ReportColumn("value", role: .measure)],
        rows: [
            [.text("plain"), .text("no quotes needed")],
            [.text("comma"), .text("a,b")],
            [.text("quote"), .text(#"say "hi""#)],
            [.text("newline"), .text("line 1\nline 2")],
            [.text("carriage return"), .text("a\rb")],
            [.text("CRLF"), .text("a\r\nb")],
            [.text("spaces kept"), .text("  padded  ")],
            [.text("empty text"), .text("")],
            [.text("null"), .null],
            [.text("integer"), .int(-42)],
            [.text("double"), .double(0.1)],
            [.text("not a number"), .double(.nan)],
            [.text("JSON"), .json(#"[{"reason":"a, b","count":3}]"#)],
            [.text("header, with comma"), .text("ok")],
        ])

    /// Text that JSON must escape, and numbers at their limits.
    static let jsonEscaping = GroupedReport(
        columns: [ReportColumn("case", role: .key), ReportColumn("value", role: .measure)],
        rows: [
            [.text("quote and backslash"), .text(#"say "hi" \ C:\path"#)],
            [.text("controls"), .text("tab\tnewline\ncr\rbell\u{07}nul\u{00}esc\u{1B}[31m backspace\u{08} formfeed\u{0C} del\u{7F}")],
            [.text("non-ASCII stays UTF-8"), .text("线性代数 café 😀 \u{2028}")],
            [.text("full precision"), .double(0.08333333333333333)],
            [.text("tiny"), .double(1e-7)],
            [.text("whole double"), .double(3)],
            [.text("negative zero"), .double(-0.0)],
            [.text("NaN"), .double(.nan)],
            [.text("infinity"), .double(-.infinity)],
            [.text("Int64.max"), .int(.max)],
            [.text("Int64.min"), .int(.min)],
            [.text("null"), .null],
            [.text("verbatim JSON"), .json(#"{"nested":[1,2,{"k":"v"}]}"#)],
        ])
}
