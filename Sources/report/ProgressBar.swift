import Foundation

/// A one-line progress bar on standard error (bytes, rate, ETA); drawn only on a terminal and
/// only for inputs large enough to wait for.
final class ProgressBar {
    private let start: Date
    private let clock: () -> Date
    private var lastDraw: Date
    private var drawn = false
    private let label: String

    /// Inputs smaller than this finish before a bar would help.
    static let threshold = 8 << 20

    /// A bar for `label`, or nil when standard error is not a terminal or the input is small.
    static func make(label: String, totalBytes: Int?, clock: @escaping () -> Date = Date.init) -> ProgressBar? {
        guard Terminal.stderrIsTerminal, (totalBytes ?? Int.max) >= threshold else { return nil }
        return ProgressBar(label: label, clock: clock)
    }

    init(label: String, clock: @escaping () -> Date) {
        self.label = label
        self.clock = clock
        start = clock()
        lastDraw = .distantPast
    }

    /// Redraws at most ten times a second.
    func update(bytesRead: Int, totalBytes: Int?) {
        let now = clock()
        guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(bytesRead) / elapsed
        var line = "\(label) \(Self.size(bytesRead))"
        if let totalBytes, totalBytes > 0 {
            let fraction = min(1, Double(bytesRead) / Double(totalBytes))
            let width = 24
            let filled = Int(fraction * Double(width))
            let eta = rate > 0 ? Double(totalBytes - bytesRead) / rate : 0
            line = "\(label) [\(String(repeating: "█", count: filled))\(String(repeating: "░", count: width - filled))] "
                + "\(Int(fraction * 100))% \(Self.size(bytesRead))/\(Self.size(totalBytes)) \(Self.size(Int(rate)))/s ETA \(Int(eta.rounded()))s"
        } else {
            line += " \(Self.size(Int(rate)))/s"
        }
        Terminal.writeError("\r\u{1B}[2K" + line)
        drawn = true
    }

    /// Clears the bar's line.
    func finish() {
        if drawn { Terminal.writeError("\r\u{1B}[2K") }
    }

    static func size(_ bytes: Int) -> String {
        let mb = Double(bytes) / 1_048_576
        return mb >= 10 ? "\(Int(mb)) MB" : String(format: "%.1f MB", mb)
    }
}
