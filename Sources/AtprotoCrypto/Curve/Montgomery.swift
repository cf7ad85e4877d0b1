/// A modulus whose residues are kept in Montgomery form: value * R mod m, where R = 2^256.
///
/// Multiplication is a full 512-bit product followed by Montgomery reduction (REDC), which divides
/// by R with four multiply-and-shift steps instead of a long division.
protocol MontgomeryModulus: PrimeModulus {
    /// R^2 mod m: multiplying by it brings a value into Montgomery form.
    static var rSquared: UInt256 { get }
    /// -m^-1 mod 2^64, the factor of each reduction step.
    static var inverseNegated: UInt64 { get }
    /// One step of REDC: adds the multiple q * m that clears limb `t0` (generic below; a modulus
    /// whose shape allows does it with fewer multiplications), the carries going up through `t4`
    /// into `carry`.
    static func reductionStep(
        _ t0: UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64, _ t4: inout UInt64,
        _ carry: inout Bool)
}

extension MontgomeryModulus {
    @inline(__always)
    static func represent(_ value: UInt256) -> UInt256 { product(value, rSquared) }

    @inline(__always)
    static func value(of representation: UInt256) -> UInt256 { product(representation, .one) }

    /// R mod m, which is 2^256 - m because m > 2^255.
    static var oneRepresentation: UInt256 { UInt256.zero.subtractingReportingOverflow(modulus).partialValue }

    // product(a, b) is a * b / R mod m: with one factor in Montgomery form and the other plain,
    // the plain product.

    /// REDC: (high * 2^256 + low) / R mod m, for an input below m * R.
    @inline(__always)
    static func reduce(_ low: UInt256, _ high: UInt256) -> UInt256 {
        let t0 = low.l0
        var t1 = low.l1
        var t2 = low.l2
        var t3 = low.l3
        var t4 = high.l0
        var t5 = high.l1
        var t6 = high.l2
        var t7 = high.l3
        var carry = false
        // Each step adds q * m * 2^(64 i), with q making limb i zero, and moves the carry on.
        reductionStep(t0, &t1, &t2, &t3, &t4, &carry)
        reductionStep(t1, &t2, &t3, &t4, &t5, &carry)
        reductionStep(t2, &t3, &t4, &t5, &t6, &carry)
        reductionStep(t3, &t4, &t5, &t6, &t7, &carry)
        let result = UInt256(t4, t5, t6, t7)
        let (reduced, borrow) = result.subtractingReportingOverflow(modulus)
        return .select(carry || !borrow, reduced, result)
    }

    /// One reduction step: limb `t0` is cancelled by adding q * m (q = t0 * -m^-1 mod 2^64); the
    /// step's carry and the previous step's carry go into `t4`, and `t4`'s carry out into `carry`.
    @inline(__always)
    static func reductionStep(
        _ t0: UInt64, _ t1: inout UInt64, _ t2: inout UInt64, _ t3: inout UInt64, _ t4: inout UInt64,
        _ carry: inout Bool
    ) {
        let m = modulus
        let q = t0 &* inverseNegated
        var c: UInt64
        (_, c) = multiplyAdd(q, m.l0, t0, 0)
        (t1, c) = multiplyAdd(q, m.l1, t1, c)
        (t2, c) = multiplyAdd(q, m.l2, t2, c)
        (t3, c) = multiplyAdd(q, m.l3, t3, c)
        (t4, carry) = addWithCarry(t4, c, carry)
    }
}

/// 256 x 256 -> 512-bit products, as (low, high) halves.
enum WideArithmetic {
    /// a * b, schoolbook, one row per limb of b.
    @inline(__always)
    static func product(_ a: UInt256, _ b: UInt256) -> (low: UInt256, high: UInt256) {
        var c: UInt64
        var t0: UInt64
        var t1: UInt64
        var t2: UInt64
        var t3: UInt64
        var t4: UInt64
        var t5: UInt64
        var t6: UInt64
        var t7: UInt64
        (t0, c) = multiplyAdd(a.l0, b.l0, 0, 0)
        (t1, c) = multiplyAdd(a.l1, b.l0, 0, c)
        (t2, c) = multiplyAdd(a.l2, b.l0, 0, c)
        (t3, t4) = multiplyAdd(a.l3, b.l0, 0, c)
        (t1, c) = multiplyAdd(a.l0, b.l1, t1, 0)
        (t2, c) = multiplyAdd(a.l1, b.l1, t2, c)
        (t3, c) = multiplyAdd(a.l2, b.l1, t3, c)
        (t4, t5) = multiplyAdd(a.l3, b.l1, t4, c)
        (t2, c) = multiplyAdd(a.l0, b.l2, t2, 0)
        (t3, c) = multiplyAdd(a.l1, b.l2, t3, c)
        (t4, c) = multiplyAdd(a.l2, b.l2, t4, c)
        (t5, t6) = multiplyAdd(a.l3, b.l2, t5, c)
        (t3, c) = multiplyAdd(a.l0, b.l3, t3, 0)
        (t4, c) = multiplyAdd(a.l1, b.l3, t4, c)
        (t5, c) = multiplyAdd(a.l2, b.l3, t5, c)
        (t6, t7) = multiplyAdd(a.l3, b.l3, t6, c)
        return (UInt256(t0, t1, t2, t3), UInt256(t4, t5, t6, t7))
    }

    /// a * a: the six cross products once, doubled, plus the four squares (10 multiplications).
    @inline(__always)
    static func square(_ a: UInt256) -> (low: UInt256, high: UInt256) {
        var c: UInt64
        var t1: UInt64
        var t2: UInt64
        var t3: UInt64
        var t4: UInt64
        var t5: UInt64
        var t6: UInt64
        (t1, c) = multiplyAdd(a.l0, a.l1, 0, 0)
        (t2, c) = multiplyAdd(a.l0, a.l2, 0, c)
        (t3, t4) = multiplyAdd(a.l0, a.l3, 0, c)
        (t3, c) = multiplyAdd(a.l1, a.l2, t3, 0)
        (t4, t5) = multiplyAdd(a.l1, a.l3, t4, c)
        (t5, t6) = multiplyAdd(a.l2, a.l3, t5, 0)
        // Double the cross products.
        let t7 = t6 >> 63
        t6 = t6 << 1 | t5 >> 63
        t5 = t5 << 1 | t4 >> 63
        t4 = t4 << 1 | t3 >> 63
        t3 = t3 << 1 | t2 >> 63
        t2 = t2 << 1 | t1 >> 63
        t1 <<= 1
        // Add the squares on the diagonal.
        let (h0, l0) = a.l0.multipliedFullWidth(by: a.l0)
        let (h1, l1) = a.l1.multipliedFullWidth(by: a.l1)
        let (h2, l2) = a.l2.multipliedFullWidth(by: a.l2)
        let (h3, l3) = a.l3.multipliedFullWidth(by: a.l3)
        var carry: Bool
        (t1, carry) = t1.addingReportingOverflow(h0)
        (t2, carry) = addWithCarry(t2, l1, carry)
        (t3, carry) = addWithCarry(t3, h1, carry)
        (t4, carry) = addWithCarry(t4, l2, carry)
        (t5, carry) = addWithCarry(t5, h2, carry)
        (t6, carry) = addWithCarry(t6, l3, carry)
        let (r7, _) = addWithCarry(t7, h3, carry)
        return (UInt256(l0, t1, t2, t3), UInt256(t4, t5, t6, r7))
    }
}
