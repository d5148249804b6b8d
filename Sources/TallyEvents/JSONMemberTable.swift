/// The members of one scanned object plus a hash index over their keys, in a single heap block.
///
/// The index has 64 one-byte slots, each holding a member's position + 1 (0 = empty). A repeated
/// key takes over its slot, so a lookup finds the key's last occurrence. Objects with more than
/// `maximumIndexed` members, or with escaped keys, are not indexed and are searched linearly.
/// `JSONMember` is a trivial type, so the members need no deinitialization.
final class JSONMemberTable: ManagedBuffer<JSONMemberTable.Header, JSONMember> {
    /// The bookkeeping in front of the members.
    struct Header {
        /// The number of members stored.
        var count = 0
        /// The number of members that fit.
        var capacity: Int
        /// Whether `slots` covers every member.
        var indexed = true
        /// 8 × 8 = 64 one-byte slots.
        var slots: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    /// The most members an index holds (keeps the 64 slots at most 5/8 full).
    static let maximumIndexed = 40

    /// An empty table with room for `capacity` members.
    static func make(capacity: Int) -> JSONMemberTable {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in Header(capacity: capacity) }, to: JSONMemberTable.self)
    }

    /// The first slot to probe for a key with these first eight bytes and length.
    @inline(__always)
    static func bucket(prefix: UInt64, length: Int) -> Int {
        Int(truncatingIfNeeded: ((prefix ^ UInt64(truncatingIfNeeded: length) &* 0x1_0000_01B3) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// Appends `member`, whose key lies in the bytes at `base`, and indexes it; `false` (and no
    /// change) when the table is full.
    @inline(__always)
    func append(_ member: JSONMember, keysAt base: UnsafeRawPointer) -> Bool {
        withUnsafeMutablePointers { header, members in
            let count = header.pointee.count
            guard count < header.pointee.capacity else { return false }
            (members + count).initialize(to: member)
            header.pointee.count = count + 1
            guard header.pointee.indexed else { return true }
            guard !member.keyEscaped, count < JSONMemberTable.maximumIndexed else {
                header.pointee.indexed = false
                return true
            }
            withUnsafeMutableBytes(of: &header.pointee.slots) { slots in
                var slot = JSONMemberTable.bucket(prefix: member.keyPrefix, length: member.keyLength)
                while true {
                    let occupant = Int(slots[slot])
                    if occupant == 0 || members[occupant - 1].hasKey(base + member.keyStart, count: member.keyLength,
                                                                      prefix: member.keyPrefix, keysAt: base) {
                        slots[slot] = UInt8(truncatingIfNeeded: count + 1)
                        return
                    }
                    slot = (slot + 1) & 63
                }
            }
            return true
        }
    }

    /// The position of the last member satisfying `matches`, which must hold only for members with
    /// one key; `bucket` is that key's first slot.
    @inline(__always)
    func lastIndex(bucket: Int, where matches: (JSONMember) -> Bool) -> Int? {
        withUnsafeMutablePointers { header, members in
            guard header.pointee.indexed else {
                var i = header.pointee.count
                while i > 0 {
                    i -= 1
                    if matches(members[i]) { return i }
                }
                return nil
            }
            return withUnsafeBytes(of: &header.pointee.slots) { slots in
                var slot = bucket
                while true {
                    let occupant = Int(slots[slot])
                    if occupant == 0 { return nil }
                    if matches(members[occupant - 1]) { return occupant - 1 }
                    slot = (slot + 1) & 63
                }
            }
        }
    }

    /// The number of members.
    var count: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.count }
    }

    /// The member at `index`, which must be below `count`.
    @inline(__always)
    subscript(index: Int) -> JSONMember {
        withUnsafeMutablePointerToElements { $0[index] }
    }

    /// A copy with twice the room.
    func grown() -> JSONMemberTable {
        let capacity = withUnsafeMutablePointerToHeader { $0.pointee.capacity }
        let larger = JSONMemberTable.make(capacity: max(capacity * 2, 4))
        withUnsafeMutablePointers { header, members in
            larger.withUnsafeMutablePointers { largerHeader, largerMembers in
                largerMembers.initialize(from: members, count: header.pointee.count)
                let capacity = largerHeader.pointee.capacity
                largerHeader.pointee = header.pointee
                largerHeader.pointee.capacity = capacity
            }
        }
        return larger
    }
}
