/// A point of `Curve` in Jacobian coordinates: (X, Y, Z) stands for (X/Z^2, Y/Z^3), and Z = 0 for
/// the point at infinity. Addition and doubling need no field inversion.
///
/// Formulas from the Explicit-Formulas Database (hyperelliptic.org/EFD), variable time.
struct JacobianPoint<Curve: ShortWeierstrassCurve>: Sendable {
    var x: Curve.Field
    var y: Curve.Field
    var z: Curve.Field

    /// The point at infinity, the group's identity.
    static var infinity: JacobianPoint { JacobianPoint(x: .one, y: .one, z: .zero) }

    @inline(__always)
    init(x: Curve.Field, y: Curve.Field, z: Curve.Field) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point (x, y, 1).
    @inline(__always)
    init(_ point: AffinePoint<Curve>) {
        self.init(x: point.x, y: point.y, z: .one)
    }

    var isInfinity: Bool { z.isZero }

    /// The point in affine coordinates (one field inversion), or nil for the point at infinity.
    var affine: AffinePoint<Curve>? {
        guard !isInfinity else { return nil }
        let zInverse = z.inverse()
        let zInverse2 = zInverse.squared()
        return AffinePoint(x: x * zInverse2, y: y * zInverse2 * zInverse)
    }

    /// The point -P = (X, -Y, Z).
    @inline(__always)
    var negated: JacobianPoint { JacobianPoint(x: x, y: -y, z: z) }

    /// 2P. For a = 0: dbl-2009-l (2M + 5S); for a = -3: dbl-2001-b with Z3 = 2YZ (4M + 4S: one
    /// multiplication instead of a squaring and two subtractions measured faster). Multiples by 3, 4
    /// and 8 take one reduction each.
    @inline(__always)
    func doubled() -> JacobianPoint {
        if Curve.aIsZero {
            let a = x.squared()
            let b = y.squared()
            let c = b.squared()
            let d = ((x + b).squared() - a - c).doubled()
            let e = a.tripled()
            let f = e.squared()
            let x3 = f - d.doubled()
            let eightC = c.octupled()
            let y3 = e * (d - x3) - eightC
            let z3 = (y * z).doubled()
            return JacobianPoint(x: x3, y: y3, z: z3)
        }
        let delta = z.squared()
        let gamma = y.squared()
        let beta = x * gamma
        let t = (x - delta) * (x + delta)
        let alpha = t.tripled()
        let fourBeta = beta.quadrupled()
        let x3 = alpha.squared() - beta.octupled()
        let z3 = (y * z).doubled()
        let eightGamma2 = gamma.squared().octupled()
        let y3 = alpha * (fourBeta - x3) - eightGamma2
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// P + Q for an affine Q (mixed addition, 8M + 3S).
    @inline(__always)
    func adding(_ other: AffinePoint<Curve>) -> JacobianPoint {
        if isInfinity { return JacobianPoint(other) }
        if let (sum, _) = addingDistinct(other) { return sum }
        // The same x: Q is P or -P.
        return other.y * z.squared() * z == y ? doubled() : .infinity
    }

    /// P + Q for an affine Q whose x differs from P's (and P not at infinity), with the ratio of the
    /// new Z to the old; nil when the x are equal. Mixed addition, 8M + 3S.
    @inline(__always)
    func addingDistinct(_ other: AffinePoint<Curve>) -> (JacobianPoint, Curve.Field)? {
        let z1z1 = z.squared()
        let u2 = other.x * z1z1
        let s2 = other.y * z1z1 * z
        let h = u2 - x
        guard !h.isZero, !z.isZero else { return nil }
        let r = s2 - y
        let hh = h.squared()
        let hhh = hh * h
        let v = x * hh
        let x3 = r.squared() - hhh - v.doubled()
        let y3 = r * (v - x3) - y * hhh
        return (JacobianPoint(x: x3, y: y3, z: z * h), h)
    }

    /// P + Q for a Jacobian Q (add-1998-cmo-2, 12M + 4S).
    @inline(__always)
    func adding(_ other: JacobianPoint) -> JacobianPoint {
        adding(CachedJacobianPoint(other))
    }

    /// P + Q for a Jacobian Q whose Z^2 and Z^3 are known (11M + 3S).
    @inline(__always)
    func adding(_ other: CachedJacobianPoint<Curve>) -> JacobianPoint {
        if isInfinity { return other.point }
        if other.point.isInfinity { return self }
        let z1z1 = z.squared()
        let u1 = x * other.zz
        let u2 = other.point.x * z1z1
        let s1 = y * other.zzz
        let s2 = other.point.y * z1z1 * z
        let h = u2 - u1
        let r = s2 - s1
        if h.isZero {
            return r.isZero ? doubled() : .infinity
        }
        let hh = h.squared()
        let hhh = hh * h
        let v = u1 * hh
        let x3 = r.squared() - hhh - v.doubled()
        let y3 = r * (v - x3) - s1 * hhh
        return JacobianPoint(x: x3, y: y3, z: z * other.point.z * h)
    }
}

/// A Jacobian point with its Z^2 and Z^3, for table entries added many times (each addition
/// saves a multiplication and a squaring).
struct CachedJacobianPoint<Curve: ShortWeierstrassCurve>: Sendable {
    var point: JacobianPoint<Curve>
    var zz: Curve.Field
    var zzz: Curve.Field

    @inline(__always)
    init(_ point: JacobianPoint<Curve>) {
        self.point = point
        zz = point.z.squared()
        zzz = zz * point.z
    }

    /// -P, with the same Z.
    @inline(__always)
    var negated: CachedJacobianPoint {
        var copy = self
        copy.point.y = -point.y
        return copy
    }
}
