/// ECDSA verification by atproto's rules, over one curve.
enum ECDSAVerification<Curve: ShortWeierstrassCurve> {
    /// Whether (r, s) signs `digest` (SHA-256, as a big-endian integer) for `key`.
    ///
    /// atproto's rules: r and s in 1...n-1 (the caller refuses any form but compact), s at most
    /// n/2 (low-S: the other of the two valid s values is refused, so signatures are not
    /// malleable), and the x of R = u1 G + u2 Q, reduced modulo n, equal to r.
    static func isValid(r: UInt256, s: UInt256, digest e: UInt256, key: AffinePoint<Curve>) -> Bool {
        let n = Curve.OrderModulus.modulus
        let halfN = n.shiftedRightOne()
        guard !r.isZero, r < n, !s.isZero, !(halfN < s), let sResidue = Curve.Scalar(s) else { return false }
        // The digest is as wide as n, so it is taken whole and reduced modulo n.
        let eReduced = e < n ? e : e.subtractingReportingOverflow(n).partialValue
        // sInverse is s^-1 in Montgomery form (s^-1 * 2^256); a Montgomery product with a plain
        // integer gives the plain product: u = x * s^-1 mod n.
        let sInverse = sResidue.variableTimeInverse().representation
        let u1 = Curve.OrderModulus.product(eReduced, sInverse)
        let u2 = Curve.OrderModulus.product(r, sInverse)
        let point = Curve.linearCombination(u1, u2, key)
        guard !point.isInfinity else { return false }
        return xMatches(point, r)
    }

    /// Whether the affine x of `point` (not at infinity), reduced modulo n, is `r` (below n).
    ///
    /// x = X / Z^2, so instead of inverting Z it checks X = r * Z^2, and, since x may lie in n..<p,
    /// also X = (r + n) * Z^2 when r + n < p.
    static func xMatches(_ point: JacobianPoint<Curve>, _ r: UInt256) -> Bool {
        let zz = point.z.squared()
        guard let rField = Curve.Field(r) else { return false }
        if rField * zz == point.x { return true }
        let (wrapped, overflow) = r.addingReportingOverflow(Curve.OrderModulus.modulus)
        guard !overflow, let wrappedField = Curve.Field(wrapped) else { return false }
        return wrappedField * zz == point.x
    }
}
