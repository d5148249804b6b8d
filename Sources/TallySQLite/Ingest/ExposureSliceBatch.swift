import TallyIngest

/// The slices of the (page instance, item) pairs a batch touches, for the filtered exposure
/// counts (`ExposureSliceWriter`): a pair's one slice (local date, platform, app version) while
/// its events share it, the usual case, whose first event and count are the batch's
/// `firstExposures`; otherwise its first event and count per slice.
struct ExposureSliceBatch {
    enum Slices {
        case one(ImpressionSlices.Slice)
        case several([ImpressionSlices.Slice: FirstExposure])
    }

    var pairs: [PageItem: Slices] = [:]

    var isEmpty: Bool { pairs.isEmpty }

    /// Notes an exposure event of `pair` at `slice` (`event` with `events` 1); `sofar` is what
    /// the batch held of the pair before it (its first event and count), nil when nothing.
    mutating func add(_ pair: PageItem, at slice: ImpressionSlices.Slice, _ event: FirstExposure, sofar: FirstExposure?) {
        switch pairs[pair] {
        case nil:
            pairs[pair] = .one(slice)
        case .one(let held):
            guard held != slice, let sofar else { return }
            pairs[pair] = .several([held: sofar, slice: event])
        case .several(var bySlice):
            bySlice[slice] = bySlice[slice].map { $0.merging(event) } ?? event
            pairs[pair] = .several(bySlice)
        }
    }
}
