/// One model object of the feed (IGListKit's section model): a post, an ad, a carousel of
/// suggested users — any type, each turning itself into rows.
///
/// Sections are matched across refreshes by their type and ``sectionId``; a matched section
/// whose content changed is an update.
public protocol FeedSection: Sendable {
    /// The section's identity among sections of its type.
    var sectionId: String { get }
    /// The rows it shows, top to bottom.
    var rows: [FeedRow] { get }
    /// Whether `other`, a section of any type, shows the same content.
    func isContentEqual(to other: any FeedSection) -> Bool
}

extension FeedSection where Self: Equatable {
    /// Content equality is `==` with a section of the same type.
    public func isContentEqual(to other: any FeedSection) -> Bool {
        (other as? Self) == self
    }
}
