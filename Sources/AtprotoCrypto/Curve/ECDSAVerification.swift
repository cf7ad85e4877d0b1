/// ECDSA verification by atproto's rules, over one curve.
enum ECDSAVerification<Curve: ShortWeierstrassCurve> {
    /// Whether `signature` (64 bytes, r then s, big-endian) signs the 32-byte `digest` for `key`.
    ///
    /// atproto's rules: compact form only (so DER fails on length), r and s in 1...n-1, s at most
    /// n/2 (low-S: the other of the two valid s values is refused, so signatures are not
    /// malleable), and the x of R = u1 G + u2 Q, reduced modulo n, equal to r.
    static func isValid(signature: some Collection<UInt8>, digest: some Collection<UInt8>, key: AffinePoint<Curve>)
        -> Bool
    {
        guard signature.count == 64, let e = UInt256(bigEndian: digest),
            let r = UInt256(bigEndian: signature.prefix(32)),
            let s = UInt256(bigEndian: signature.dropFirst(32))
        else { return false }
        let n = Curve.OrderModulus.modulus
        let halfN = n.shiftedRightOne()
        guard !r.isZero, r < n, !s.isZero, !(halfN < s), let sResidue = Curve.Scalar(s) else { return false }
        // The digest is as wide as n, so it is taken whole and reduced modulo n.
        let eReduced = e < n ? e : e.subtractingReportingOverflow(n).partialValue
        // sInverse is s^-1 in Montgomery form (s^-1 * 2^256); a Montgomery product with a plain
        // integer gives the plain product: u = x * s^-1 mod n.
        let sInverse = sResidue.inverse().montgomery
        let u1 = Curve.Scalar.montgomeryProduct(eReduced, sInverse)
        let u2 = Curve.Scalar.montgomeryProduct(r, sInverse)
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
