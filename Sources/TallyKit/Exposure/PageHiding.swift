/// A reason a page is off screen; it shows when it has none.
enum PageHiding: Hashable {
    /// Not appeared yet, or disappeared.
    case notShown
    /// Covered by a pushed child page.
    case childPage
    /// Another bottom tab is selected.
    case otherBottomTab
    /// The app is in the background.
    case background
}
