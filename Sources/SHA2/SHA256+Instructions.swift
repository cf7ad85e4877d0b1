import CSHA256Accel

extension SHA256 {
    /// Whether blocks are hashed with the CPU's SHA-256 instructions (x86-64 SHA extensions, ARMv8
    /// SHA2), as the running CPU reports them; the portable Swift code otherwise. Same digests.
    package static let usesHardware: Bool = csha256_accelerated() != 0
}

extension SHA256.State {
    /// Folds `blocks` 64-byte blocks at `data` into the state with the CPU's instructions (CSHA256Accel).
    /// Only when ``SHA256/usesHardware``.
    mutating func compressWithInstructions(_ data: UnsafeRawPointer, blocks: Int) {
        // A homogeneous tuple is laid out as an array of its elements.
        var words = (h0, h1, h2, h3, h4, h5, h6, h7)
        withUnsafeMutableBytes(of: &words) { raw in
            guard let base = raw.baseAddress else { return }
            csha256_compress(
                base.assumingMemoryBound(to: UInt32.self), data.assumingMemoryBound(to: UInt8.self), blocks)
        }
        (h0, h1, h2, h3, h4, h5, h6, h7) = words
    }
}
