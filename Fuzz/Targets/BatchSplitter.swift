import TallyIngest

/// libFuzzer entry: a batch file (or NDJSON, as the detector decides) through the reader, the
/// batch splitter and the re-reading of damaged elements. The first byte picks a small chunk
/// size; the records must not depend on how the input was cut into chunks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatch(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let chunkSize = Int(data[0] % 64) + 1
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    func records(_ chunk: Int) -> [String]? {
        guard let reader = try? EventFileReader(bytes: input, name: "fuzz.json", chunkSize: chunk, maxRecordBytes: 4096),
              let validated = try? ValidatedChunk(reading: reader, label: "fuzz.json") else { return nil }
        return validated.entries.map { entry in
            let outcome = switch entry.result {
            case .success(let event): "ok \(event.idempotencyKey)"
            case .failure(let rejection): "\(rejection.code.rawValue)"
            }
            return "\(entry.origin.label) \(outcome) \(entry.range.count)"
        }
    }
    let small = records(chunkSize), whole = records(1 << 20)
    if small != whole {
        fatalError("records depend on the chunk size \(chunkSize): \(String(describing: small)) vs \(String(describing: whole))")
    }
    return 0
}
