/// A small seeded random number generator (SplitMix64), for tests and benchmarks that must draw the
/// same values on every run, so a failure can be replayed from its seed. Not for secrets.
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let value = Int.random(in: 0..<10, using: &generator)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
