import TallyEvents

/// A (page instance, item): the pair whose first exposure the exposure counts are kept from, in
/// the SQLite store (`exposure_firsts`) and the ClickHouse one (`exposure_pairs`).
package struct PageItem: Hashable, Sendable {
    @Bytewise package var pageInstance: String
    @Bytewise package var item: String

    package init(pageInstance: String, item: String) {
        self.pageInstance = pageInstance
        self.item = item
    }
}

/// A (user, impression): the impression whose exposures and final reaction the dislike counters
/// are kept from, in the SQLite store and the ClickHouse one (`impression_exposures`,
/// `impression_reactions`).
package struct UserImpression: Hashable, Sendable {
    @Bytewise package var user: String
    @Bytewise package var impression: String

    package init(user: String, impression: String) {
        self.user = user
        self.impression = impression
    }
}
