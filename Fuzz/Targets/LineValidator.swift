import TallyEvents

/// libFuzzer entry: one NDJSON line through the JSON scanner and the event validator.
/// Whatever the bytes, validation returns an event or a rejection, never traps; a rejection
/// always has a message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if case .failure(let rejection) = EventValidator.validate(bytes), rejection.message.isEmpty {
        fatalError("a rejection without a message")
    }
    return 0
}
