import TallyIngest

/// libFuzzer entry: arbitrary bytes read as a `.gz` event file (gzip header, members, damage,
/// truncation), then inflated whole with a limit as a request body is. Errors are fine; traps,
/// leaks and overflows are not, and a body never inflates past its limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzip(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    if let reader = try? EventFileReader(bytes: input, name: "fuzz.ndjson.gz", chunkSize: 512) {
        try? reader.forEachRecord { record in _ = record.bytes.count }
    }
    let limit = 1 << 16
    if let inflated = try? EventFileReader.gunzip(input, limit: limit, name: "fuzz"), inflated.count > limit {
        fatalError("inflated past the limit")
    }
    return 0
}
