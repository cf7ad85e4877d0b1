/// Tables of odd multiples P, 3P, 5P, ... that wNAF digits index.
enum OddMultiples {
    /// `count` odd multiples of `point` in affine coordinates, for tables built once (like G's):
    /// computed in Jacobian coordinates, then brought to affine with a single field inversion
    /// (Montgomery's trick: invert the product of all Z, then peel each inverse off it).
    static func affine<Curve>(of point: AffinePoint<Curve>, count: Int) -> [AffinePoint<Curve>] {
        var jacobian = [JacobianPoint(point)]
        jacobian.reserveCapacity(count)
        let twice = JacobianPoint(point).doubled()
        while jacobian.count < count {
            jacobian.append(jacobian[jacobian.count - 1].adding(twice))
        }
        // An odd multiple below the (prime, huge) group order is never the point at infinity, so
        // every Z is nonzero. prefix[i] = Z_0 * ... * Z_(i-1).
        var prefix = [Curve.Field.one]
        prefix.reserveCapacity(count)
        for entry in jacobian.dropLast() {
            prefix.append(prefix[prefix.count - 1] * entry.z)
        }
        var inverse = (prefix[count - 1] * jacobian[count - 1].z).inverse()
        var table = [AffinePoint<Curve>](repeating: point, count: count)
        for index in stride(from: count - 1, through: 0, by: -1) {
            // inverse is 1 / (Z_0 * ... * Z_index) here.
            let zInverse = inverse * prefix[index]
            inverse = inverse * jacobian[index].z
            let zInverse2 = zInverse.squared()
            table[index] = AffinePoint(x: jacobian[index].x * zInverse2, y: jacobian[index].y * zInverse2 * zInverse)
        }
        return table
    }

    /// P, 3P, ..., (2 * table.count - 1)P in Jacobian coordinates, with their Z^2 and Z^3, into
    /// `table`.
    @inline(__always)
    static func jacobian<Curve>(
        of point: AffinePoint<Curve>, into table: UnsafeMutableBufferPointer<CachedJacobianPoint<Curve>>
    ) {
        var current = JacobianPoint(point)
        let twice = CachedJacobianPoint(current.doubled())
        table.initialize(repeating: CachedJacobianPoint(current))
        for index in 1..<table.count {
            current = current.adding(twice)
            table[index] = CachedJacobianPoint(current)
        }
    }
}

/// Width-w non-adjacent form: digits that are 0 or odd with |d| < 2^(w-1), at most one nonzero in
/// any w in a row, so that k = sum of d_i * 2^i.
enum WNAF {
    /// The digits of `scalar`, least significant first, into `digits` (at least bitWidth + 1 long,
    /// 257 for any scalar; all of it is written, zeros past the last nonzero digit); returns how many
    /// up to the last nonzero one. `width` is 2 through 16. With `negated`, the digits of -scalar.
    ///
    /// Reads the scalar a window at a time instead of shifting it: at a position whose bit differs
    /// from the carry, the window's bits plus the carry make an odd digit; one at or above
    /// 2^(width-1) is taken as digit - 2^width and carries 1 into the next window.
    @inline(__always)
    static func digits(
        of scalar: UInt256, width: Int, negated: Bool = false, into digits: UnsafeMutableBufferPointer<Int16>
    ) -> Int {
        let end = scalar.bitWidth + 1
        digits.update(repeating: 0)
        let sign: Int = negated ? -1 : 1
        var carry = 0
        var index = 0
        var count = 0
        while index < end {
            if Int(scalar.bits(index, count: 1)) == carry {
                index += 1
                continue
            }
            var digit = Int(scalar.bits(index, count: width)) + carry
            carry = (digit >> (width - 1)) & 1
            digit -= carry << width
            digits[index] = Int16(truncatingIfNeeded: digit * sign)
            count = index + 1
            index += width
        }
        return count
    }
}

extension JacobianPoint {
    /// The point plus `digit` times the table's point, for a wNAF digit: table[i] is (2i + 1)P.
    @inline(__always)
    func adding(digit: Int16, of table: UnsafePointer<AffinePoint<Curve>>) -> JacobianPoint {
        if digit > 0 { return adding(table[Int(digit) >> 1]) }
        if digit < 0 { return adding(table[Int(-digit) >> 1].negated) }
        return self
    }

    /// The point plus `digit` times the table's point, for a wNAF digit: table[i] is (2i + 1)P.
    @inline(__always)
    func adding(digit: Int16, of table: UnsafePointer<CachedJacobianPoint<Curve>>) -> JacobianPoint {
        if digit > 0 { return adding(table[Int(digit) >> 1]) }
        if digit < 0 { return adding(table[Int(-digit) >> 1].negated) }
        return self
    }
}

extension ShortWeierstrassCurve {
    /// The wNAF window width for a point given per call (its table is built every time).
    static var pointWindow: Int { 5 }

    /// u1 * G + u2 * Q, by interleaved wNAF (Straus-Shamir): one run of doublings for both, G's
    /// digits from the shared table, Q's from a small table built on the stack.
    static func straussLinearCombination(_ u1: UInt256, _ u2: UInt256, _ q: AffinePoint<Self>) -> JacobianPoint<Self> {
        withUnsafeTemporaryAllocation(of: Int16.self, capacity: 2 * 257) { digits in
            let gDigits = UnsafeMutableBufferPointer(rebasing: digits[0..<257])
            let qDigits = UnsafeMutableBufferPointer(rebasing: digits[257...])
            let gCount = WNAF.digits(of: u1, width: generatorWindow, into: gDigits)
            let qCount = WNAF.digits(of: u2, width: pointWindow, into: qDigits)
            return withUnsafeTemporaryAllocation(of: CachedJacobianPoint<Self>.self, capacity: 1 << (pointWindow - 2)) {
                qTable in
                OddMultiples.jacobian(of: q, into: qTable)
                guard let qPoints = UnsafePointer(qTable.baseAddress) else { return .infinity }
                return generatorTable.withUnsafeBufferPointer { gTable in
                    guard let gPoints = gTable.baseAddress else { return .infinity }
                    var result = JacobianPoint<Self>.infinity
                    var index = max(gCount, qCount) - 1
                    while index >= 0 {
                        result = result.doubled()
                        result = result.adding(digit: gDigits[index], of: gPoints)
                        result = result.adding(digit: qDigits[index], of: qPoints)
                        index -= 1
                    }
                    return result
                }
            }
        }
    }
}
