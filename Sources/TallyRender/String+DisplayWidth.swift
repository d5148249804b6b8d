extension String {
    /// Terminal columns the string takes (see `Character.displayWidth`).
    var displayWidth: Int {
        reduce(0) { $0 + $1.displayWidth }
    }

    /// The string cut to at most `width` columns, ending in `…` when something was cut.
    func truncated(toWidth width: Int) -> String {
        guard displayWidth > width else { return self }
        var kept = ""
        var used = 0
        for character in self {
            let w = character.displayWidth
            if used + w > width - 1 { break }
            kept.append(character)
            used += w
        }
        return kept + "…"
    }
}
