/// A section's identity in a heterogeneous feed: its type and its id, so that a post and an ad
/// that happen to share an id stay apart.
struct FeedSectionKey: Hashable {
    /// The section's type.
    let kind: ObjectIdentifier
    /// Its ``FeedSection/sectionId``.
    let sectionId: String
}
