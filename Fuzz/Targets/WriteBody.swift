import TallyIngest

/// libFuzzer entry: a request body as the write endpoints take it (`TallyServer.ingest`):
/// inflated when gzip (bounded), refused when blank, then read and validated whole before
/// anything is stored. Every record read must come back as exactly one entry.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let limit = 1 << 16
    var body = Array(UnsafeBufferPointer(start: data, count: size))
    if EventFileReader.isGzip(body) {
        guard let inflated = try? EventFileReader.gunzip(body, limit: limit, name: "POST /events") else { return 0 }
        body = inflated
    }
    guard body.contains(where: { !$0.isBlank && $0 != 0x0A }),
          let reader = try? EventFileReader(bytes: body, name: "POST /events", chunkSize: 4096) else { return 0 }
    guard let validated = try? ValidatedChunk(reading: reader, label: "POST /events") else { return 0 }
    for entry in validated.entries where entry.range.upperBound > validated.bytes.count {
        fatalError("an entry outside the body's bytes")
    }
    return 0
}
