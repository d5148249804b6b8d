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

    /// Notes an exposure event of `pair` at `slice` (`event`, with `events` 1); false when it
    /// is the pair's first event outside the one slice it had, which `spread` must then note.
    mutating func add(_ pair: PageItem, at slice: ImpressionSlices.Slice, _ event: FirstExposure) -> Bool {
        switch pairs[pair] {
        case nil:
            pairs[pair] = .one(slice)
        case .one(let held):
            return held == slice
        case .several(var bySlice):
            bySlice[slice] = bySlice[slice].map { $0.merging(event) } ?? event
            pairs[pair] = .several(bySlice)
        }
        return true
    }

    /// Notes the event `add` refused: the pair's events so far (`sofar`, its first and count)
    /// all lie in its one slice, this one in another.
    mutating func spread(_ pair: PageItem, at slice: ImpressionSlices.Slice, _ event: FirstExposure, sofar: FirstExposure) {
        guard case .one(let held) = pairs[pair] else { return }
        pairs[pair] = .several([held: sofar, slice: event])
    }
}
