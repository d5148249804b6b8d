/// Something that happened to the page an ``ExposureTracker`` watches.
///
/// Only two things re-arm a page (let items already exposed be exposed again, under a new
/// `pageInstanceId`): coming back to it through the bottom tab bar, and the app returning from
/// more than 30 s in the background. Everything else keeps what was exposed.
public enum PageTransition: Sendable, Hashable, CaseIterable {
    /// The page came on screen (`viewDidAppear`): first shown, or uncovered after a modal.
    case appeared
    /// The page went off screen for a reason not listed below (`viewDidDisappear`).
    case disappeared
    /// A child page was pushed over the page: it is hidden but not re-armed.
    case childPagePushed
    /// The child page was popped: the page shows again, not re-armed.
    case childPagePopped
    /// The user switched to another bottom tab: the page is hidden.
    case bottomTabLeft
    /// The user switched back to the page's bottom tab: it shows again, re-armed.
    case bottomTabReturned
    /// The user switched top tabs inside the page; not re-armed (the next layout shows the tab's items).
    case topTabSwitched
    /// The user pulled to refresh; not re-armed: items still in the feed stay exposed.
    case refreshed
    /// The user turned to the next or previous page of results; not re-armed.
    case paged
    /// The app went to the background: the page is hidden.
    case enteredBackground
    /// The app came back; re-armed when it spent more than 30 s in the background.
    case enteredForeground
}
