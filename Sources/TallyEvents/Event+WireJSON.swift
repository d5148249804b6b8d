extension Event {
    /// Appends the event as one compact JSON object in the shape of `events.md` (no line end),
    /// unknown members (`extraJSON`) kept. Reading it back with ``EventValidator`` gives the same
    /// event for every event the validator produced.
    public func appendWireJSON(to bytes: inout [UInt8]) {
        var writer = WireJSONWriter(appendingTo: &bytes)
        switch self {
        case .reading(let event): event.write(to: &writer)
        case .feedback(let event): event.write(to: &writer)
        case .exposure(let event): event.write(to: &writer)
        case .observability(let event): event.write(to: &writer)
        }
        writer.close(extraJSON: common.extraJSON, into: &bytes)
    }

    /// The event as one compact JSON object in the shape of `events.md`.
    public func wireJSON() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(384)
        appendWireJSON(to: &bytes)
        return bytes
    }
}
