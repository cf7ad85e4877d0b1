/// secp256k1's endomorphism (Gallant, Lambert, Vanstone): for a cube root of unity beta modulo p,
/// (x, y) -> (beta * x, y) is multiplication by a cube root of unity lambda modulo n. A 256-bit
/// scalar k splits into k1 + k2 * lambda with k1 and k2 of about 128 bits, so k * Q is
/// k1 * Q + k2 * (lambda Q): two half-length multiplications that share one run of 128 doublings.
///
/// The constants were derived independently (Python integers): beta and lambda as the pair of cube
/// roots of unity that agree on G; the short lattice basis (a1, b1), (a2, b2) of
/// {(a, b) : a + b * lambda = 0 mod n} by the extended Euclidean algorithm on (n, lambda), as in
/// the GLV paper.
enum Secp256k1Endomorphism {
    /// beta, a cube root of unity modulo p.
    static var beta: Secp256k1.Field {
        Secp256k1.Field(
            representation: UInt256(
                0x3EC6_93D6_8E6A_FA40, 0x630F_B68A_ED0A_766A, 0x919B_B861_53CB_CB16, 0x8516_95D4_9A83_F8EF))
    }

    /// lambda, the cube root of unity modulo n with lambda * (x, y) = (beta * x, y).
    static var lambda: UInt256 {
        UInt256(0xE0CF_C810_B512_83CE, 0xA880_B9FC_8EC7_39C2, 0x5AD9_E3FD_77ED_9BA4, 0xAC9C_52B3_3FA3_CF1F)
    }

    // The lattice basis: a1 + b1 * lambda = a2 + b2 * lambda = 0 (mod n), with b1 < 0 and
    // a1 * b2 - a2 * b1 = n.
    static var a1: UInt256 { UInt256(0x6F54_7FA9_0ABF_E4C3, 0xE443_7ED6_010E_8828, 0, 0) }
    /// -b1.
    static var minusB1: UInt256 { UInt256(0xE86C_90E4_9284_EB15, 0x3086_D221_A7D4_6BCD, 0, 0) }
    static var a2: UInt256 { UInt256(0xE86C_90E4_9284_EB15, 0x3086_D221_A7D4_6BCD, 0, 0) }
    static var b2: UInt256 { UInt256(0x57C1_108D_9D44_CFD8, 0x14CA_50F7_A8E2_F3F6, 1, 0) }
    /// round(2^383 * b2 / n) and round(2^383 * -b1 / n), so that c1 = round(k * b2 / n) and
    /// c2 = round(k * -b1 / n) are a product and a shift.
    static var g1: UInt256 {
        UInt256(0xFF02_6AA4_6850_17D1, 0xAFDE_4960_87EE_E8A2, 0x2BE0_8846_CEA2_67EC, 0x8A65_287B_D471_79FB)
    }
    static var g2: UInt256 {
        UInt256(0xF449_904D_22ED_D818, 0x9ED5_450A_38F4_653F, 0xF436_4872_4942_758A, 0x1843_6910_D3EA_35E6)
    }

    /// k = k1 + k2 * lambda (mod n), each half as a magnitude below 2^128 and a sign.
    ///
    /// (k1, k2) = (k, 0) - c1 (a1, b1) - c2 (a2, b2), with c1 and c2 the rounded coordinates of
    /// (k, 0) in the basis: the difference is the vector (k, 0) minus its nearest lattice point, so
    /// both halves are small, and adding lattice vectors never changes k1 + k2 * lambda modulo n.
    /// The arithmetic is exact in two's complement modulo 2^256, since the true values are small.
    @inline(__always)
    static func split(_ k: UInt256) -> (k1: UInt256, k1Negative: Bool, k2: UInt256, k2Negative: Bool) {
        let c1 = roundedShift383(WideArithmetic.product(k, g1))
        let c2 = roundedShift383(WideArithmetic.product(k, g2))
        let k1 = k.wrappingSubtract(c1.wrappingMultiply(a1)).wrappingSubtract(c2.wrappingMultiply(a2))
        let k2 = c1.wrappingMultiply(minusB1).wrappingSubtract(c2.wrappingMultiply(b2))
        let k1Negative = k1.l3 >> 63 == 1
        let k2Negative = k2.l3 >> 63 == 1
        return (
            k1Negative ? UInt256.zero.wrappingSubtract(k1) : k1, k1Negative,
            k2Negative ? UInt256.zero.wrappingSubtract(k2) : k2, k2Negative
        )
    }

    /// round(x / 2^383) for a 512-bit x given as (low, high).
    @inline(__always)
    static func roundedShift383(_ x: (low: UInt256, high: UInt256)) -> UInt256 {
        let shifted = UInt256(
            x.high.l1 >> 63 | x.high.l2 << 1, x.high.l2 >> 63 | x.high.l3 << 1, x.high.l3 >> 63, 0)
        let roundUp = x.high.l1 >> 62 & 1
        return shifted.wrappingAdd(UInt256(roundUp, 0, 0, 0))
    }
}

extension UInt256 {
    /// self + other modulo 2^256.
    @inline(__always)
    func wrappingAdd(_ other: UInt256) -> UInt256 { addingReportingOverflow(other).partialValue }

    /// self - other modulo 2^256.
    @inline(__always)
    func wrappingSubtract(_ other: UInt256) -> UInt256 { subtractingReportingOverflow(other).partialValue }

    /// self * other modulo 2^256.
    @inline(__always)
    func wrappingMultiply(_ other: UInt256) -> UInt256 { WideArithmetic.product(self, other).low }
}

extension Secp256k1 {
    /// The window for G: two tables (G's and 2^128 G's odd multiples) of 2^(width-2) points each.
    static var generatorWindow: Int { 12 }

    /// 2^128 G, 3 * 2^128 G, ...: the table for the high half of u1.
    static let generatorHighTable: [AffinePoint<Secp256k1>] = {
        var point = JacobianPoint(generator)
        for _ in 0..<128 { point = point.doubled() }
        // 2^128 G is not the point at infinity (n is a prime far above 2^128).
        return OddMultiples.affine(of: point.affine ?? generator, count: 1 << (generatorWindow - 2))
    }()

    /// u1 * G + u2 * Q with 129 doublings instead of 256: u1 = low + high * 2^128 against the
    /// tables of G and 2^128 G, u2 = k1 + k2 * lambda (``Secp256k1Endomorphism``) against the odd
    /// multiples of Q and of lambda Q = (beta x, y), all four interleaved (Straus-Shamir).
    static func linearCombination(_ u1: UInt256, _ u2: UInt256, _ q: AffinePoint<Self>) -> JacobianPoint<Self> {
        let split = Secp256k1Endomorphism.split(u2)
        return withUnsafeTemporaryAllocation(of: Int16.self, capacity: 4 * 257) { digits in
            let lowDigits = UnsafeMutableBufferPointer(rebasing: digits[0..<257])
            let highDigits = UnsafeMutableBufferPointer(rebasing: digits[257..<514])
            let q1Digits = UnsafeMutableBufferPointer(rebasing: digits[514..<771])
            let q2Digits = UnsafeMutableBufferPointer(rebasing: digits[771...])
            let count = max(
                WNAF.digits(of: UInt256(u1.l0, u1.l1, 0, 0), width: generatorWindow, into: lowDigits),
                WNAF.digits(of: UInt256(u1.l2, u1.l3, 0, 0), width: generatorWindow, into: highDigits),
                WNAF.digits(of: split.k1, width: pointWindow, negated: split.k1Negative, into: q1Digits),
                WNAF.digits(of: split.k2, width: pointWindow, negated: split.k2Negative, into: q2Digits))
            let size = 1 << (pointWindow - 2)
            return withUnsafeTemporaryAllocation(of: AffinePoint<Self>.self, capacity: 2 * size) { tables in
                guard let zt = QTable.build(q, into: tables, size: size), let points = UnsafePointer(tables.baseAddress)
                else {
                    return straussLinearCombination(u1, u2, q)
                }
                let q1Points = points
                let q2Points = points + size
                let zt2 = zt.squared()
                let zt3 = zt2 * zt
                return generatorTable.withUnsafeBufferPointer { lowTable in
                    generatorHighTable.withUnsafeBufferPointer { highTable in
                        guard let lowPoints = lowTable.baseAddress, let highPoints = highTable.baseAddress else {
                            return .infinity
                        }
                        var result = JacobianPoint<Self>.infinity
                        var index = count - 1
                        while index >= 0 {
                            result = result.doubled()
                            result = result.adding(digit: lowDigits[index], of: lowPoints, scaledBy: zt2, zt3)
                            result = result.adding(digit: highDigits[index], of: highPoints, scaledBy: zt2, zt3)
                            result = result.adding(digit: q1Digits[index], of: q1Points)
                            result = result.adding(digit: q2Digits[index], of: q2Points)
                            index -= 1
                        }
                        // Back from the isomorphic curve: affine x / Zt^2 is x on secp256k1.
                        return JacobianPoint(x: result.x, y: result.y, z: result.z * zt)
                    }
                }
            }
        }
    }
}
