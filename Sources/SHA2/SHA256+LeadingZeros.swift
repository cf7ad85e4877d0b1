extension SHA256.State {
    /// The number of leading zero bits of the digest (256 for an all-zero digest), read from the
    /// state words without making the digest bytes.
    package var leadingZeroBitCount: Int {
        if h0 != 0 { return h0.leadingZeroBitCount }
        if h1 != 0 { return 32 + h1.leadingZeroBitCount }
        if h2 != 0 { return 64 + h2.leadingZeroBitCount }
        if h3 != 0 { return 96 + h3.leadingZeroBitCount }
        if h4 != 0 { return 128 + h4.leadingZeroBitCount }
        if h5 != 0 { return 160 + h5.leadingZeroBitCount }
        if h6 != 0 { return 192 + h6.leadingZeroBitCount }
        return 224 + h7.leadingZeroBitCount
    }
}

extension SHA256 {
    /// The leading zero bits of the SHA-256 of `bytes`, with no digest array made.
    package static func leadingZeroBitCount(of bytes: some Collection<UInt8>) -> Int {
        if let count = bytes.withContiguousStorageIfAvailable({ digest(of: UnsafeRawBufferPointer($0)) }) {
            return count.leadingZeroBitCount
        }
        return Array(bytes).withUnsafeBytes { digest(of: $0) }.leadingZeroBitCount
    }
}
