import TallyIngest

/// The slices of the (page instance, item) pairs a batch touches, for the filtered exposure
/// counts (`ExposureSliceWriter`). A pair whose events share one slice (local date, platform,
/// app version), the usual case, needs nothing here: its slice is that of its first event in the
/// batch's `firstExposures`, which also holds its count. Only a pair with events in several
/// slices is kept, with its first event and count per slice, so that the usual event costs no
/// hash lookup beyond its pair's one in `firstExposures`.
struct ExposureSliceBatch {
    /// The pairs with events in several slices: per slice, the first event and count.
    private var spread: [PageItem: [ImpressionSlices.Slice: FirstExposure]] = [:]

    /// Whether no pair of the batch spreads over several slices so far.
    var isEmpty: Bool { spread.isEmpty }

    /// Notes an exposure event of `pair` at `slice` (`event`, with `events` 1) when the pair may
    /// spread: `outside` is the pair's first event and count before it when this event lies
    /// outside the one slice the pair's events had so far.
    mutating func add(_ pair: PageItem, at slice: ImpressionSlices.Slice, _ event: FirstExposure, outside: FirstExposure?) {
        if !spread.isEmpty, var bySlice = spread.removeValue(forKey: pair) {
            bySlice[slice] = bySlice[slice].map { $0.merging(event) } ?? event
            spread[pair] = bySlice
        } else if let outside {
            spread[pair] = [outside.slice: outside, slice: event]
        }
    }

    /// The first event and count per slice of a pair of the batch whose events lie in several
    /// slices, nil for a pair of one slice.
    func spread(of pair: PageItem) -> [ImpressionSlices.Slice: FirstExposure]? {
        spread.isEmpty ? nil : spread[pair]
    }
}

extension FirstExposure {
    /// The slice (local date, platform, app version) of this first event.
    var slice: ImpressionSlices.Slice {
        ImpressionSlices.Slice(localDate: localDate, platform: platform, appVersion: appVersion)
    }

    /// Whether this first event lies in `slice` (as `Slice` compares: platform and app version
    /// byte for byte).
    func lies(in slice: ImpressionSlices.Slice) -> Bool {
        localDate == slice.localDate && platform.hasSameBytes(as: slice.platform)
            && appVersion.hasSameBytes(as: slice.appVersion)
    }
}
