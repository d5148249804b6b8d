extension TallySchema {
    /// Version 3: `exposure_group_members` holds one row per item or user of a group, without
    /// a count of the group's pairs that have it.
    ///
    /// Keeping that count cost a statement per member of every new pair; a row that only says
    /// "present" is written once, when the member joins, and the rare pair that moves to another
    /// group checks `exposure_firsts` for the members it leaves (`ExposureRollupWriter`). Every
    /// stored row has a count of at least 1, so existing rows keep their meaning.
    static let v3 = """
    ALTER TABLE exposure_group_members DROP COLUMN pairs;
    """
}
