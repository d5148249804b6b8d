extension EventFileReader {
    /// One record of the input: the bytes of one JSON value and where it starts.
    ///
    /// `bytes` points into the reader's buffer and is valid only during the callback that
    /// receives the record; copy it to keep it.
    public struct Record {
        /// The UTF-8 bytes of the value: a line without its CR/LF, or one element of a batch array.
        /// For a `malformed` record these are the damaged bytes (at most a preview of them), possibly empty.
        public let bytes: UnsafeRawBufferPointer
        /// The 1-based line where the value starts.
        public let line: Int
        /// The 0-based position of the element in a batch array; nil for NDJSON lines and for
        /// problems that are not an element (an unclosed array, data after the batch).
        public let index: Int?
        /// Why the reader could not cut a well-formed value here (a short phrase such as
        /// `the batch array is not closed by ']'`), or nil.
        /// The consumer rejects such a record as `INVALID_JSON` without parsing it.
        public let malformed: String?
        /// The bytes are only the first ones of a line or element too long to hold; the reader
        /// has already moved on to the next record, so they are not to be cut again.
        public var isPreview = false
    }
}
