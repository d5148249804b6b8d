#if canImport(UIKit)
import UIKit

/// Feeds an ``ExposureTracker`` from a `UICollectionView`: measures the visible cells in window
/// coordinates, with every clipping ancestor and the registered occluding views, 30 times a second
/// while the user scrolls and a few times a second while idle, and forwards the app's trips to
/// the background.
///
/// Call ``pageDidAppear()`` from `viewDidAppear` and ``pageDidDisappear()`` from
/// `viewDidDisappear` (the display link retains the observer until then). Send the page's other
/// transitions (tabs, child pages, refreshes) to the tracker directly.
@MainActor
public final class CollectionViewExposureObserver: NSObject {
    /// What a visible cell shows: its exposure identity and recommendation, or nil to ignore it.
    public typealias ItemLookup = @MainActor (IndexPath) -> (itemId: String, context: ExposureContext?)?

    private static let scrollingRate = CAFrameRateRange(minimum: 15, maximum: 30, preferred: 30)
    private static let idleRate = CAFrameRateRange(minimum: 2, maximum: 8, preferred: 4)

    private let tracker: ExposureTracker
    private weak var collectionView: UICollectionView?
    private let lookup: ItemLookup
    private let occluders = NSHashTable<UIView>.weakObjects()
    private var displayLink: CADisplayLink?

    /// An observer of `collectionView` reporting to `tracker`; `lookup` names each visible cell's item.
    public init(tracker: ExposureTracker, collectionView: UICollectionView, lookup: @escaping ItemLookup) {
        self.tracker = tracker
        self.collectionView = collectionView
        self.lookup = lookup
        super.init()
        let center = NotificationCenter.default
        center.addObserver(self, selector: #selector(enteredBackground),
                           name: UIApplication.didEnterBackgroundNotification, object: nil)
        center.addObserver(self, selector: #selector(enteredForeground),
                           name: UIApplication.willEnterForegroundNotification, object: nil)
    }

    /// Counts what `view` (a bar, a floating button) covers as not visible while it is on screen.
    public func addOccluder(_ view: UIView) {
        occluders.add(view)
    }

    /// The page is on screen: starts measuring.
    public func pageDidAppear() {
        tracker.handle(.appeared)
        report()
        guard displayLink == nil else { return }
        let link = CADisplayLink(target: self, selector: #selector(step(_:)))
        link.preferredFrameRateRange = Self.idleRate
        link.add(to: .main, forMode: .common)
        displayLink = link
    }

    /// The page left the screen: stops measuring.
    public func pageDidDisappear() {
        displayLink?.invalidate()
        displayLink = nil
        tracker.handle(.disappeared)
    }

    /// Measures the visible cells now and hands the layout to the tracker.
    public func report() {
        guard let collectionView, let window = collectionView.window else { return }
        var items: [ExposureItem] = []
        for indexPath in collectionView.indexPathsForVisibleItems {
            guard let cell = collectionView.cellForItem(at: indexPath), !cell.isHidden,
                  let shown = lookup(indexPath) else { continue }
            items.append(ExposureItem(itemId: shown.itemId, frame: Rect(cell.convert(cell.bounds, to: nil)),
                                      clips: clippingAncestors(of: cell), context: shown.context))
        }
        let covering = occluders.allObjects
            .filter { $0.window === window && !$0.isHidden && $0.alpha > 0 }
            .map { Rect($0.convert($0.bounds, to: nil)) }
        tracker.update(ExposureLayout(window: Rect(window.bounds), items: items, occluders: covering))
    }

    private func clippingAncestors(of view: UIView) -> [Rect] {
        var clips: [Rect] = []
        var ancestor = view.superview
        while let current = ancestor, !(current is UIWindow) {
            if current.clipsToBounds {
                clips.append(Rect(current.convert(current.bounds, to: nil)))
            }
            ancestor = current.superview
        }
        return clips
    }

    @objc private func step(_ link: CADisplayLink) {
        report()
        let scrolling = collectionView.map { $0.isTracking || $0.isDecelerating } ?? false
        link.preferredFrameRateRange = scrolling ? Self.scrollingRate : Self.idleRate
    }

    @objc private func enteredBackground() {
        tracker.handle(.enteredBackground)
    }

    @objc private func enteredForeground() {
        tracker.handle(.enteredForeground)
    }
}
#endif
