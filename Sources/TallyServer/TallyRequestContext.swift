import Hummingbird
import NIOCore

/// The request context of `report serve`'s router: Hummingbird's basic context plus the
/// connection the request came on, so that a handler can learn that its client went away.
public struct TallyRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    public let channel: any Channel

    /// The context of a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
