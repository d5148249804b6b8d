import TallyEvents

/// Where the reader is in a material: a page of a paged document, a fraction of a scrolled
/// one, or both, plus an opaque anchor the reader uses to restore the exact spot.
///
/// On the wire it is the reading event's `position` object. ``progress`` is always normalised
/// to `0...1`: the given fraction clamped, or `page / pageCount` (clamped) when no fraction is
/// given, so every event the reports read carries a valid progress.
public struct ReadingPosition: Sendable, Equatable {
    /// The current page (1-based as the reader shows it), if paged.
    public var page: Int?
    /// The number of pages, if paged.
    public var pageCount: Int?
    /// The progress in `0...1`, or nil when neither a finite fraction nor a page count was given.
    public let progress: Double?
    /// The reader's own locator (a CFI, a scroll anchor), kept verbatim, if any.
    public var anchor: String?

    /// A position. `progress` is clamped to `0...1` (a non-finite value counts as absent);
    /// without it, `page / pageCount` clamped is used when `pageCount > 0`.
    public init(page: Int? = nil, pageCount: Int? = nil, progress: Double? = nil, anchor: String? = nil) {
        self.page = page
        self.pageCount = pageCount
        self.anchor = anchor
        if let progress, progress.isFinite {
            self.progress = min(max(progress, 0), 1)
        } else if let page, let pageCount, pageCount > 0 {
            self.progress = min(max(Double(page) / Double(pageCount), 0), 1)
        } else {
            self.progress = nil
        }
    }

    /// The `position` object as JSON text: `page`, `pageCount`, `progress`, `anchor` when present.
    public var jsonText: String {
        var members: [String: JSONValue] = [:]
        if let page { members["page"] = .int(Int64(page)) }
        if let pageCount { members["pageCount"] = .int(Int64(pageCount)) }
        if let progress { members["progress"] = .double(progress) }
        if let anchor { members["anchor"] = .string(anchor) }
        return JSONValue.objectText(members)
    }
}
