extension Residue where Modulus: MontgomeryModulus {
    /// The multiplicative inverse (zero for zero) by the binary extended Euclidean algorithm: about
    /// 180 rounds of a subtraction and a shift for a 256-bit modulus, against some 330 modular
    /// multiplications for Fermat's ``inverse()``. Its running time depends on the value, so it is
    /// for public data only (the s of a signature being verified).
    func variableTimeInverse() -> Residue {
        guard !isZero else { return .zero }
        // The representation is aR; its plain inverse is a^-1 R^-1, and a Montgomery product with
        // R^3 mod m turns that into a^-1 R, the representation of a^-1.
        let plain = BinaryInversion<Modulus>.inverse(of: representation)
        let rCubed = Modulus.product(Modulus.rSquared, Modulus.rSquared)
        return Residue(representation: Modulus.product(plain, rCubed))
    }
}

/// x^-1 mod m for an odd prime m above 2^255, on plain integers.
enum BinaryInversion<Modulus: MontgomeryModulus> {
    /// The inverse of `a` (in 1..<m) modulo m.
    ///
    /// Keeps x1 * a = u and x2 * a = v (mod m), starting from (u, v) = (a, m): both u and v are
    /// kept odd by dividing out their factors of two (and x1 or x2 by the same power of two, modulo
    /// m), and the larger loses the smaller, until u = v = gcd(a, m) = 1, when x1 is the inverse.
    /// Which of the two is larger is a coin toss, so the pairs are swapped by masking rather than
    /// by a branch that would be mispredicted half the time; the rest is branch-free too.
    static func inverse(of a: UInt256) -> UInt256 {
        var u = a
        var v = Modulus.modulus
        var x1 = UInt256.one
        var x2 = UInt256.zero
        makeOdd(&u, &x1)
        while u != v {
            // Make (u, x1) the pair with the larger u, then u -= v and x1 -= x2.
            let (difference, borrow) = u.subtractingReportingOverflow(v)
            let smaller = UInt256.select(borrow, u, v)
            let smallerX = UInt256.select(borrow, x1, x2)
            u = UInt256.select(borrow, UInt256.zero.subtractingReportingOverflow(difference).partialValue, difference)
            x1 = subtract(UInt256.select(borrow, x2, x1), smallerX)
            v = smaller
            x2 = smallerX
            makeOdd(&u, &x1)
        }
        return x1
    }

    /// x - y mod m, for x and y below m.
    @inline(__always)
    static func subtract(_ x: UInt256, _ y: UInt256) -> UInt256 {
        let (difference, borrow) = x.subtractingReportingOverflow(y)
        return .select(borrow, difference.addingReportingOverflow(Modulus.modulus).partialValue, difference)
    }

    /// Divides the nonzero `value` by its largest power of two, and `x` (below m) by the same power
    /// modulo m.
    @inline(__always)
    static func makeOdd(_ value: inout UInt256, _ x: inout UInt256) {
        while !value.isOdd {
            let shift = min(value.trailingZeroBitCount, 63)
            value = value.shiftedRight(shift)
            x = halved(x, times: shift)
        }
    }

    /// x / 2^shift mod m for x below m and shift in 1...63: adds the multiple k * m (k below
    /// 2^shift) that makes the low `shift` bits zero, which needs k = x * (-m^-1) mod 2^shift, then
    /// shifts; the quotient is below 2m, so one subtraction of m finishes it.
    @inline(__always)
    static func halved(_ x: UInt256, times shift: Int) -> UInt256 {
        let m = Modulus.modulus
        let k = (x.l0 &* Modulus.inverseNegated) & ((1 << UInt64(shift)) - 1)
        var c: UInt64
        var t0: UInt64
        var t1: UInt64
        var t2: UInt64
        var t3: UInt64
        (t0, c) = multiplyAdd(k, m.l0, x.l0, 0)
        (t1, c) = multiplyAdd(k, m.l1, x.l1, c)
        (t2, c) = multiplyAdd(k, m.l2, x.l2, c)
        (t3, c) = multiplyAdd(k, m.l3, x.l3, c)
        let s = UInt64(shift)
        let shifted = UInt256(
            t0 >> s | t1 << (64 - s), t1 >> s | t2 << (64 - s), t2 >> s | t3 << (64 - s), t3 >> s | c << (64 - s))
        let top = c >> s
        let (reduced, borrow) = shifted.subtractingReportingOverflow(m)
        return .select(top != 0 || !borrow, reduced, shifted)
    }
}

extension UInt256 {
    /// The number of zero bits below the lowest set bit; 256 for zero.
    var trailingZeroBitCount: Int {
        if l0 != 0 { return l0.trailingZeroBitCount }
        if l1 != 0 { return 64 + l1.trailingZeroBitCount }
        if l2 != 0 { return 128 + l2.trailingZeroBitCount }
        return 192 + l3.trailingZeroBitCount
    }

    /// The value shifted right by `shift` bits, 1 through 63.
    @inline(__always)
    func shiftedRight(_ shift: Int) -> UInt256 {
        let s = UInt64(shift)
        return UInt256(l0 >> s | l1 << (64 - s), l1 >> s | l2 << (64 - s), l2 >> s | l3 << (64 - s), l3 >> s)
    }
}
