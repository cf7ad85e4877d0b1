/// The odd multiples of Q (and of lambda Q) for ``Secp256k1/linearCombination(_:_:_:)`` as affine
/// points of an isomorphic curve, so that adding them costs a mixed addition, without a field
/// inversion.
///
/// For any nonzero Z, (x, y) -> (x Z^2, y Z^3) maps y^2 = x^3 + 7 onto y^2 = x^3 + 7 Z^6, and the
/// doubling and addition formulas do not involve the constant term, so a multiplication can run on
/// the image and come back at the end by multiplying its Jacobian Z by Z. With D = 2Q = (X, Y, Z),
/// D's image under Z is the affine (X, Y); the odd multiples Q + kD are computed there by mixed
/// additions, then brought to their common (last) Z by the ratios the additions report, which makes
/// them affine on the image under Zt = Z * that last Z. (libsecp256k1 documents the same idea.)
enum QTable {
    /// Writes Q, 3Q, ... (`size` entries) then lambda Q, 3 lambda Q, ... into `table` as affine
    /// points of the image under the returned Zt; nil when a Z would be zero (never, for a point of
    /// prime order n: it would need (2i + 1) Q = +-2Q).
    @inline(__always)
    static func build(
        _ q: AffinePoint<Secp256k1>, into table: UnsafeMutableBufferPointer<AffinePoint<Secp256k1>>, size: Int
    ) -> Secp256k1.Field? {
        let d = JacobianPoint(q).doubled()
        guard !d.isInfinity else { return nil }
        let z2 = d.z.squared()
        let dImage = AffinePoint<Secp256k1>(x: d.x, y: d.y)
        return withUnsafeTemporaryAllocation(of: JacobianPoint<Secp256k1>.self, capacity: size) { jacobian in
            withUnsafeTemporaryAllocation(of: Secp256k1.Field.self, capacity: size) { ratios in
                jacobian[0] = JacobianPoint(x: q.x * z2, y: q.y * (z2 * d.z), z: .one)
                for index in 1..<size {
                    guard let (next, ratio) = jacobian[index - 1].addingDistinct(dImage) else { return nil }
                    jacobian[index] = next
                    ratios[index] = ratio
                }
                // ratio = Z_last / Z_index, built from the top down.
                let last = size - 1
                var ratio = Secp256k1.Field.one
                let beta = Secp256k1Endomorphism.beta
                for index in stride(from: last, through: 0, by: -1) {
                    let entry = jacobian[index]
                    let point: AffinePoint<Secp256k1>
                    if index == last {
                        point = AffinePoint(x: entry.x, y: entry.y)
                    } else {
                        let ratio2 = ratio.squared()
                        point = AffinePoint(x: entry.x * ratio2, y: entry.y * ratio2 * ratio)
                    }
                    table[index] = point
                    table[size + index] = AffinePoint(x: point.x * beta, y: point.y)
                    if index > 0 { ratio = ratio * ratios[index] }
                }
                return d.z * jacobian[last].z
            }
        }
    }
}

extension JacobianPoint {
    /// The point plus `digit` times the table's point mapped by (x, y) -> (x zz, y zzz): the
    /// generator's multiples on the isomorphic curve of ``QTable``.
    @inline(__always)
    func adding(
        digit: Int16, of table: UnsafePointer<AffinePoint<Curve>>, scaledBy zz: Curve.Field, _ zzz: Curve.Field
    ) -> JacobianPoint {
        if digit > 0 {
            let entry = table[Int(digit) >> 1]
            return adding(AffinePoint(x: entry.x * zz, y: entry.y * zzz))
        }
        if digit < 0 {
            let entry = table[Int(-digit) >> 1]
            return adding(AffinePoint(x: entry.x * zz, y: -(entry.y * zzz)))
        }
        return self
    }
}
