/// A section of any type, as the list diff sees it.
struct FeedSectionBox: Diffable {
    /// The section.
    let section: any FeedSection

    /// The section's type and id.
    var diffIdentifier: FeedSectionKey {
        FeedSectionKey(kind: ObjectIdentifier(type(of: section)), sectionId: section.sectionId)
    }

    /// Whether both sections show the same content.
    func isContentEqual(to other: FeedSectionBox) -> Bool {
        section.isContentEqual(to: other.section)
    }
}
