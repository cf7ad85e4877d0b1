/// A seeded generator for workloads that must be the same on every run (xorshift64*): the records a
/// benchmark writes, the order it deletes them. Not for secrets.
public struct WorkloadRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed` (a zero seed is replaced, xorshift has no zero state).
    public init(seed: UInt64) { state = seed == 0 ? 0x2545_F491_4F6C_DD1D : seed }

    /// The next value of the sequence.
    public mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
