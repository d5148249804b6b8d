import TallyEvents

/// Changes to the exposure-count rows gathered over a batch.
struct ExposureDeltas {
    struct Group: Hashable {
        var dimension: ExposureDimension
        var value: SQLValue
    }

    struct Counters {
        var exposures = 0
        var duplicates = 0
        var uniqueItems = 0
        var uniqueUsers = 0

        var isZero: Bool { exposures == 0 && duplicates == 0 && uniqueItems == 0 && uniqueUsers == 0 }

        /// Adds (`sign` 1) or removes (`sign` -1) one pair that had `events` exposure events.
        mutating func add(_ sign: Int, events: Int) {
            exposures += sign
            duplicates += sign * (events - 1)
        }

        /// Counts a member joining (`change` 1) or leaving (`change` -1) the group.
        mutating func count(_ kind: Kind, _ change: Int) {
            if kind == .item { uniqueItems += change } else { uniqueUsers += change }
        }
    }

    /// What a member row counts: the items or the users of a group (`kind` in the table).
    enum Kind: String {
        case item
        case user
    }

    struct Member: Hashable {
        var group: Group
        var kind: Kind
        @Bytewise var member: String
    }

    var groups: [Group: Counters] = [:]
}

// MARK: - The dimensions

/// The ways `report exposures --by` groups exposures, and the value of each for one exposure.
public enum ExposureDimension: String, Sendable, CaseIterable {
    /// The local date of the exposure.
    case day
    /// The page kind (`pageId`).
    case page
    /// The item shown.
    case item
    /// The model version.
    case model
    /// The feed position.
    case position
}
