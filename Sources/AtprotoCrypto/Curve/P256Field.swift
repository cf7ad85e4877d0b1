extension P256 {
    /// The field prime p = 2^256 - 2^224 + 2^192 + 2^96 - 1, in Montgomery form with a reduction
    /// specialised to p's shape: -p^-1 = 1 mod 2^64, so each step's factor q is the limb itself, and
    /// adding q * p cancels that limb while adding q * 2^96 (a shift) and q * (2^64 - 2^32 + 1) * 2^192
    /// (one multiplication) above it: one multiplication a step instead of four.
    enum FieldModulus: MontgomeryModulus {
        static var modulus: UInt256 {
            UInt256(0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0x0000_0000_0000_0000, 0xFFFF_FFFF_0000_0001)
        }
        static var rSquared: UInt256 {
            UInt256(0x0000_0000_0000_0003, 0xFFFF_FFFB_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE, 0x0000_0004_FFFF_FFFD)
        }
        static var inverseNegated: UInt64 { 1 }

        /// Adds q * p for q = t0, which clears t0: since p = -1 + 2^96 + p3 * 2^192 with
        /// p3 = 2^64 - 2^32 + 1, t0 + q * p = (t0 - q) + q * 2^96 + q * p3 * 2^192, and t0 - q = 0.
        @inline(__always)
        static func reductionStep(
            _ q: UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64, _ t4: inout UInt64,
            _ carry: inout Bool
        ) {
            let (high, low) = q.multipliedFullWidth(by: 0xFFFF_FFFF_0000_0001)
            var c: Bool
            (t1, c) = t1.addingReportingOverflow(q << 32)
            (t2, c) = addWithCarry(t2, q >> 32, c)
            (t3, c) = addWithCarry(t3, low, c)
            // high <= 2^64 - 2^32, so high + c does not wrap.
            (t4, carry) = addWithCarry(t4, high &+ word(c), carry)
        }
    }
}
