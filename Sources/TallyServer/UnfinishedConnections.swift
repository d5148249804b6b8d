import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The open connections, and which of them have a request not yet complete (no whole head yet,
/// or a body still arriving), oldest first. When a new connection brings the count to the
/// limit, the oldest one with an unfinished request is closed: a flood of connections that never
/// finish their headers or trickle their bodies cannot keep a real request from being accepted
/// (the idle and body timeouts close the rest in time).
final class UnfinishedConnections: Sendable {
    private struct State {
        var open = 0
        /// Connections with an unfinished request, by when it started; entries of ones that
        /// finished it or closed are skipped when met.
        var queue: [(id: ObjectIdentifier, channel: any Channel)] = []
        var queueStart = 0
        var waiting: Set<ObjectIdentifier> = []
        var evicted = 0

        /// Drops queue entries already passed, and stale ones once they outnumber the live ones.
        mutating func compact() {
            if queueStart > 1024 && queueStart * 2 > queue.count {
                queue.removeFirst(queueStart)
                queueStart = 0
            }
            if queue.count - queueStart > 2 * waiting.count + 1024 {
                let live = waiting
                queue = queue[queueStart...].filter { live.contains($0.id) }
                queueStart = 0
            }
        }

        /// Counts `channel` in, its request unfinished; the oldest other connection with an
        /// unfinished request when the count reached `limit`.
        mutating func admit(_ id: ObjectIdentifier, _ channel: any Channel, limit: Int) -> (any Channel)? {
            open += 1
            start(id, channel)
            guard open >= limit else { return nil }
            while queueStart < queue.count, queue[queueStart].id != id {
                let oldest = queue[queueStart]
                queueStart += 1
                if waiting.remove(oldest.id) != nil {
                    evicted += 1
                    return oldest.channel
                }
            }
            return nil
        }

        /// `channel` has an unfinished request from now on (nothing changes while it has one).
        mutating func start(_ id: ObjectIdentifier, _ channel: any Channel) {
            guard waiting.insert(id).inserted else { return }
            queue.append((id, channel))
            compact()
        }
    }

    /// The connection count at which the oldest connection with an unfinished request is closed.
    let limit: Int
    /// How long a request's body may take to arrive in full after its head.
    let bodyTimeout: TimeAmount
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    /// Evictions between two log lines while a flood lasts.
    static let logEvery = 1000

    /// Tracks connections against `limit`, closing those whose body takes longer than
    /// `bodyTimeout`, and logging evictions to `logger`.
    init(limit: Int, bodyTimeout: TimeAmount, logger: Logger) {
        self.limit = limit
        self.bodyTimeout = bodyTimeout
        self.logger = logger
    }

    /// A handler for one connection's pipeline that reports its requests and its close here,
    /// and its client going away to `disconnects`.
    func handler(disconnects: Disconnects) -> RequestWatch {
        RequestWatch(connections: self, disconnects: disconnects)
    }

    /// Connections open now, and how many were closed to make room since the server started.
    var counts: (open: Int, evicted: Int) {
        state.withLockedValue { ($0.open, $0.evicted) }
    }

    /// `channel` was accepted; closes the oldest connection with an unfinished request when the
    /// count reached the limit.
    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let (victim, evicted) = state.withLockedValue { state in
            (state.admit(id, channel, limit: limit), state.evicted)
        }
        guard let victim else { return }
        if evicted % Self.logEvery == 1 {
            logger.warning("connection limit reached (\(limit), --max-connections): closing the oldest connections whose request is not complete; \(evicted) closed so far")
        }
        victim.close(promise: nil)
    }

    /// `channel` sent a request head: its request is unfinished until its end arrives.
    func requestStarted(_ channel: any Channel) {
        state.withLockedValue { $0.start(ObjectIdentifier(channel), channel) }
    }

    /// `channel` sent the end of its request.
    func requestFinished(_ channel: any Channel) {
        _ = state.withLockedValue { $0.waiting.remove(ObjectIdentifier(channel)) }
    }

    /// `channel` closed.
    func closed(_ channel: any Channel) {
        state.withLockedValue { state in
            state.open -= 1
            state.waiting.remove(ObjectIdentifier(channel))
            state.compact()
        }
    }
}

/// Tells `UnfinishedConnections` when its connection opens, starts and finishes a request and
/// closes, closes the connection when a request's body is not complete `bodyTimeout` after its
/// head (the idle timeout restarts on every byte, so it cannot end a body that trickles in),
/// and tells `Disconnects` when its client closes its side or the connection. It sits after
/// HTTP decoding and passes every message and event on untouched.
final class RequestWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPConnectionStateHandler.InboundIn

    private let connections: UnfinishedConnections
    private let disconnects: Disconnects
    private var bodyDeadline: Scheduled<Void>?

    init(connections: UnfinishedConnections, disconnects: Disconnects) {
        self.connections = connections
        self.disconnects = disconnects
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed? = event as? ChannelEvent {
            disconnects.gone(context.channel)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        bodyDeadline?.cancel()
        disconnects.gone(context.channel)
        context.fireChannelInactive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let connections = self.connections
        connections.opened(channel)
        channel.closeFuture.whenComplete { _ in connections.closed(channel) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let channel = context.channel
        switch unwrapInboundIn(data) {
        case .head:
            connections.requestStarted(channel)
            bodyDeadline?.cancel()
            bodyDeadline = context.eventLoop.scheduleTask(in: connections.bodyTimeout) { channel.close(promise: nil) }
        case .end:
            bodyDeadline?.cancel()
            bodyDeadline = nil
            connections.requestFinished(channel)
        case .body:
            break
        }
        context.fireChannelRead(data)
    }
}
