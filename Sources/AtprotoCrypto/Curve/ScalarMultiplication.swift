/// Tables of odd multiples P, 3P, 5P, ... that wNAF digits index.
enum OddMultiples {
    /// `count` odd multiples of `point` in affine coordinates (one inversion each: for tables built
    /// once, like G's).
    static func affine<Curve>(of point: AffinePoint<Curve>, count: Int) -> [AffinePoint<Curve>] {
        var table = [point]
        table.reserveCapacity(count)
        let twice = JacobianPoint(point).doubled()
        var current = JacobianPoint(point)
        while table.count < count {
            current = current.adding(twice)
            // An odd multiple below the (prime, huge) group order is never the point at infinity.
            guard let next = current.affine else { break }
            table.append(next)
        }
        return table
    }

    /// P, 3P, ..., (2 * table.count - 1)P in Jacobian coordinates into `table`.
    @inline(__always)
    static func jacobian<Curve>(
        of point: AffinePoint<Curve>, into table: UnsafeMutableBufferPointer<JacobianPoint<Curve>>
    ) {
        let first = JacobianPoint(point)
        let twice = first.doubled()
        table.initialize(repeating: first)
        for index in 1..<table.count {
            table[index] = table[index - 1].adding(twice)
        }
    }
}

/// Width-w non-adjacent form: digits that are 0 or odd with |d| < 2^(w-1), at most one nonzero in
/// any w in a row, so that k = sum of d_i * 2^i.
enum WNAF {
    /// The digits of `scalar` (below 2^256 - 2^(width-1)), least significant first, into `digits`
    /// (at least 257 long); returns how many were written. `width` is 2 through 8.
    @inline(__always)
    static func digits(of scalar: UInt256, width: Int, into digits: UnsafeMutableBufferPointer<Int8>) -> Int {
        var k = scalar
        let mask = (UInt64(1) << UInt64(width)) - 1
        let half = Int64(1) << Int64(width - 1)
        var count = 0
        while !k.isZero {
            if k.isOdd {
                var digit = Int64(k.l0 & mask)
                if digit >= half {
                    digit -= Int64(mask) + 1
                    k = k.addingReportingOverflow(UInt256(UInt64(-digit), 0, 0, 0)).partialValue
                } else {
                    k = k.subtractingReportingOverflow(UInt256(UInt64(digit), 0, 0, 0)).partialValue
                }
                digits[count] = Int8(truncatingIfNeeded: digit)
            } else {
                digits[count] = 0
            }
            k = k.shiftedRightOne()
            count += 1
        }
        return count
    }
}

extension ShortWeierstrassCurve {
    /// The wNAF window width for a point given per call (its table is built every time).
    static var pointWindow: Int { 5 }

    /// u1 * G + u2 * Q, by interleaved wNAF (Straus-Shamir): one run of doublings for both, G's
    /// digits from the shared table, Q's from a small table built on the stack.
    static func linearCombination(_ u1: UInt256, _ u2: UInt256, _ q: AffinePoint<Self>) -> JacobianPoint<Self> {
        withUnsafeTemporaryAllocation(of: Int8.self, capacity: 2 * 257) { digits in
            let gDigits = UnsafeMutableBufferPointer(rebasing: digits[0..<257])
            let qDigits = UnsafeMutableBufferPointer(rebasing: digits[257...])
            let gCount = WNAF.digits(of: u1, width: generatorWindow, into: gDigits)
            let qCount = WNAF.digits(of: u2, width: pointWindow, into: qDigits)
            return withUnsafeTemporaryAllocation(of: JacobianPoint<Self>.self, capacity: 1 << (pointWindow - 2)) {
                qTable in
                OddMultiples.jacobian(of: q, into: qTable)
                let gTable = generatorTable
                var result = JacobianPoint<Self>.infinity
                var index = max(gCount, qCount) - 1
                while index >= 0 {
                    result = result.doubled()
                    if index < gCount {
                        let digit = Int(gDigits[index])
                        if digit > 0 {
                            result = result.adding(gTable[digit >> 1])
                        } else if digit < 0 {
                            result = result.adding(gTable[-digit >> 1].negated)
                        }
                    }
                    if index < qCount {
                        let digit = Int(qDigits[index])
                        if digit > 0 {
                            result = result.adding(qTable[digit >> 1])
                        } else if digit < 0 {
                            result = result.adding(qTable[-digit >> 1].negated)
                        }
                    }
                    index -= 1
                }
                return result
            }
        }
    }
}
