import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The open connections, and which of them have not sent a complete request head yet, oldest
/// first. When a new connection brings the count to the limit, the oldest one still without a
/// head is closed: a flood of connections that never finish their headers cannot keep a real
/// request from being accepted (the idle timeout closes the rest in time).
final class HeadlessConnections: Sendable {
    private struct State {
        var open = 0
        /// Connections without a head, by arrival; entries of ones that sent a head or closed
        /// are skipped when met.
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

        /// Counts `channel` in; the oldest other connection still without a head when the count reached `limit`.
        mutating func admit(_ id: ObjectIdentifier, _ channel: any Channel, limit: Int) -> (any Channel)? {
            open += 1
            queue.append((id, channel))
            waiting.insert(id)
            defer { compact() }
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
    }

    /// The connection count at which the oldest headless connection is closed.
    let limit: Int
    private let logger: Logger
    private let state = NIOLockedValueBox(State())

    /// Evictions between two log lines while a flood lasts.
    static let logEvery = 1000

    /// Tracks connections against `limit`, logging evictions to `logger`.
    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    /// A handler for one connection's pipeline that reports its head and its close here, and
    /// its client going away to `disconnects`.
    func handler(disconnects: Disconnects) -> HeadWatch {
        HeadWatch(connections: self, disconnects: disconnects)
    }

    /// `channel` was accepted; closes the oldest headless connection when the count reached the limit.
    func opened(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let (victim, evicted) = state.withLockedValue { state in
            (state.admit(id, channel, limit: limit), state.evicted)
        }
        guard let victim else { return }
        if evicted % Self.logEvery == 1 {
            logger.warning("connection limit reached (\(limit), --max-connections): closing the oldest connections that have not sent a request head; \(evicted) closed so far")
        }
        victim.close(promise: nil)
    }

    /// Connections open now, and how many were closed to make room since the server started.
    var counts: (open: Int, evicted: Int) {
        state.withLockedValue { ($0.open, $0.evicted) }
    }

    /// `channel` sent a complete request head.
    func headReceived(_ channel: any Channel) {
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

/// Tells `HeadlessConnections` when its connection opens, sends its first request head and
/// closes, and `Disconnects` when its client closes its side or the connection. It sits after
/// HTTP decoding, where the first message is a complete head; it passes every message and
/// event on untouched.
final class HeadWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let connections: HeadlessConnections
    private let disconnects: Disconnects
    private var sawHead = false

    init(connections: HeadlessConnections, disconnects: Disconnects) {
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
        if !sawHead {
            sawHead = true
            connections.headReceived(context.channel)
        }
        context.fireChannelRead(data)
    }
}
