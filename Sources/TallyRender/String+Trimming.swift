extension String {
    /// The string without the spaces at its end.
    var droppingTrailingSpaces: String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " {
            end = index(before: end)
        }
        return String(self[..<end])
    }
}
