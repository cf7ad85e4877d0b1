extension Secp256k1 {
    /// The field prime p = 2^256 - c with c = 2^32 + 977: since 2^256 = c mod p, the high half of a
    /// product folds onto the low half with one small multiplication per limb. Values are kept
    /// plain (no Montgomery form).
    enum FieldModulus: PrimeModulus {
        static var modulus: UInt256 {
            UInt256(0xFFFF_FFFE_FFFF_FC2F, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF)
        }

        /// 2^256 - p.
        static var c: UInt64 { 0x1_0000_03D1 }

        @inline(__always)
        static func represent(_ value: UInt256) -> UInt256 { value }

        @inline(__always)
        static func value(of representation: UInt256) -> UInt256 { representation }

        static var oneRepresentation: UInt256 { .one }

        /// (high * 2^256 + low) mod p = (high * c + low) mod p, folded twice, then one conditional
        /// subtraction.
        @inline(__always)
        static func reduce(_ low: UInt256, _ high: UInt256) -> UInt256 {
            var k: UInt64
            var r0: UInt64
            var r1: UInt64
            var r2: UInt64
            var r3: UInt64
            (r0, k) = multiplyAdd(high.l0, c, low.l0, 0)
            (r1, k) = multiplyAdd(high.l1, c, low.l1, k)
            (r2, k) = multiplyAdd(high.l2, c, low.l2, k)
            (r3, k) = multiplyAdd(high.l3, c, low.l3, k)
            // Now r + k * 2^256 with k < 2^34: fold k * c (below 2^67) in.
            let (foldLow, foldHigh) = multiplyAdd(k, c, r0, 0)
            var carry: Bool
            r0 = foldLow
            (r1, carry) = r1.addingReportingOverflow(foldHigh)
            (r2, carry) = addWithCarry(r2, 0, carry)
            (r3, carry) = addWithCarry(r3, 0, carry)
            // Past 2^256 once more (then the rest is tiny): 2^256 = c. Rare, so a branch is fine.
            var result = UInt256(r0, r1, r2, r3)
            if carry {
                result = result.addingReportingOverflow(UInt256(c, 0, 0, 0)).partialValue
            }
            // result >= p exactly when result + c carries out of 2^256; then result + c - 2^256 is
            // result - p.
            let (plusC, over) = result.addingReportingOverflow(UInt256(c, 0, 0, 0))
            return .select(over, plusC, result)
        }
    }
}
