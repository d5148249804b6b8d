extension UInt8 {
    /// JSON whitespace other than the line feed: space, tab, carriage return.
    public var isBlank: Bool {
        self == 0x20 || self == 0x09 || self == 0x0D
    }
}
