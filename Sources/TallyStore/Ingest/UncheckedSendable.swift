/// Hands a value that is not `Sendable` to exactly one other thread, which then owns it.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
