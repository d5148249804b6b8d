import CZlib
import TallyEvents

/// The layout of one record in a segment file:
///
/// | bytes | content |
/// | --- | --- |
/// | 4 | magic `TLY1`, written last: a record whose magic is not there was never completed |
/// | 4 | payload length, little-endian |
/// | 4 | CRC-32 of the payload, little-endian |
/// | n | payload: the family's byte (``EventFamily`` order), then the event's wire JSON |
enum RecordFrame {
    /// The record marker, `TLY1` in little-endian byte order.
    static let magic: UInt32 = 0x3159_4C54
    /// Bytes before the payload.
    static let headerSize = 12

    /// The byte naming `family` in a payload.
    static func byte(of family: EventFamily) -> UInt8 {
        switch family {
        case .reading: 0
        case .feedback: 1
        case .exposure: 2
        case .observability: 3
        }
    }

    /// The family a payload's first byte names, if any.
    static func family(of byte: UInt8) -> EventFamily? {
        switch byte {
        case 0: .reading
        case 1: .feedback
        case 2: .exposure
        case 3: .observability
        default: nil
        }
    }

    /// A frame for `event` with its header filled in, magic included.
    static func frame(_ event: Event) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: headerSize)
        bytes.reserveCapacity(512)
        bytes.append(byte(of: event.family))
        event.appendWireJSON(to: &bytes)
        bytes.withUnsafeMutableBytes { frame in
            let payloadLength = frame.count - headerSize
            let checksum = crc(UnsafeRawBufferPointer(rebasing: frame[headerSize...]))
            frame.storeBytes(of: magic.littleEndian, toByteOffset: 0, as: UInt32.self)
            frame.storeBytes(of: UInt32(payloadLength).littleEndian, toByteOffset: 4, as: UInt32.self)
            frame.storeBytes(of: checksum.littleEndian, toByteOffset: 8, as: UInt32.self)
        }
        return bytes
    }

    /// CRC-32 (zlib's) of `bytes`.
    static func crc(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return UInt32(truncatingIfNeeded: crc32(0, base.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count)))
    }
}
