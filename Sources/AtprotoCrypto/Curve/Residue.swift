/// An odd 256-bit modulus with the constants Montgomery multiplication needs.
///
/// Each curve has two: its field prime p and its group order n. Implementations return literals,
/// so that once the generic code is specialised the constants fold into the instructions.
protocol MontgomeryModulus: Sendable {
    /// The modulus m: odd and above 2^255 (so one subtraction reduces any 256-bit value).
    static var modulus: UInt256 { get }
    /// R^2 mod m, where R = 2^256: multiplying by it brings a value into Montgomery form.
    static var rSquared: UInt256 { get }
    /// -m^-1 mod 2^64, the factor of each reduction step.
    static var inverseNegated: UInt64 { get }
}

/// An integer modulo `Modulus.modulus`, kept in Montgomery form (value * 2^256 mod m) and always
/// fully reduced, so that equal values have equal limbs.
struct Residue<Modulus: MontgomeryModulus>: Sendable, Equatable {
    /// value * 2^256 mod m, in 0..<m.
    var montgomery: UInt256

    /// Wraps limbs already in Montgomery form.
    @inline(__always)
    init(montgomery: UInt256) {
        self.montgomery = montgomery
    }

    /// The residue of `value`, or nil when `value` is not below the modulus.
    init?(_ value: UInt256) {
        guard value < Modulus.modulus else { return nil }
        self.montgomery = Self.montgomeryProduct(value, Modulus.rSquared)
    }

    /// The residue of any 256-bit `value` (reduced modulo m).
    init(reducing value: UInt256) {
        var reduced = value
        while !(reduced < Modulus.modulus) {
            reduced = reduced.subtractingReportingOverflow(Modulus.modulus).partialValue
        }
        self.montgomery = Self.montgomeryProduct(reduced, Modulus.rSquared)
    }

    /// The integer, out of Montgomery form, in 0..<m.
    var value: UInt256 { Self.montgomeryProduct(montgomery, .one) }

    static var zero: Residue { Residue(montgomery: .zero) }

    /// One in Montgomery form: 2^256 mod m, which is 2^256 - m because m > 2^255.
    static var one: Residue {
        Residue(montgomery: UInt256.zero.subtractingReportingOverflow(Modulus.modulus).partialValue)
    }

    var isZero: Bool { montgomery.isZero }

    @inline(__always)
    static func + (lhs: Residue, rhs: Residue) -> Residue {
        let (sum, carry) = lhs.montgomery.addingReportingOverflow(rhs.montgomery)
        let (reduced, borrow) = sum.subtractingReportingOverflow(Modulus.modulus)
        return Residue(montgomery: carry || !borrow ? reduced : sum)
    }

    @inline(__always)
    static func - (lhs: Residue, rhs: Residue) -> Residue {
        let (difference, borrow) = lhs.montgomery.subtractingReportingOverflow(rhs.montgomery)
        guard borrow else { return Residue(montgomery: difference) }
        return Residue(montgomery: difference.addingReportingOverflow(Modulus.modulus).partialValue)
    }

    @inline(__always)
    static prefix func - (operand: Residue) -> Residue {
        zero - operand
    }

    @inline(__always)
    static func * (lhs: Residue, rhs: Residue) -> Residue {
        Residue(montgomery: montgomeryProduct(lhs.montgomery, rhs.montgomery))
    }

    /// self * self.
    @inline(__always)
    func squared() -> Residue {
        Residue(montgomery: Self.montgomeryProduct(montgomery, montgomery))
    }

    /// self + self.
    @inline(__always)
    func doubled() -> Residue { self + self }

    /// self to the power `exponent`, by fixed 4-bit windows (variable time: public data only).
    func power(_ exponent: UInt256) -> Residue {
        withUnsafeTemporaryAllocation(of: Residue.self, capacity: 16) { table in
            table.initialize(repeating: .one)
            for index in 1..<16 {
                table[index] = table[index - 1] * self
            }
            var result = Residue.one
            for window in stride(from: 63, through: 0, by: -1) {
                result = result.squared().squared().squared().squared()
                let digit = Int(exponent.bits(window * 4, count: 4))
                if digit != 0 {
                    result = result * table[digit]
                }
            }
            return result
        }
    }

    /// The multiplicative inverse (Fermat: self^(m-2), m prime); zero for zero.
    func inverse() -> Residue {
        power(Modulus.modulus.subtractingReportingOverflow(UInt256(2, 0, 0, 0)).partialValue)
    }

    /// A square root, or nil when there is none. Requires m prime and m = 3 mod 4, where a root of a
    /// quadratic residue a is a^((m+1)/4).
    func squareRoot() -> Residue? {
        let exponent = Modulus.modulus.shiftedRightOne().shiftedRightOne().addingReportingOverflow(.one).partialValue
        let root = power(exponent)
        return root.squared() == self ? root : nil
    }

    /// Montgomery multiplication (CIOS): a * b * 2^-256 mod m, for a, b below m.
    @inline(__always)
    static func montgomeryProduct(_ a: UInt256, _ b: UInt256) -> UInt256 {
        var t: Accumulator = (0, 0, 0, 0, 0)
        step(&t, a, b.l0)
        step(&t, a, b.l1)
        step(&t, a, b.l2)
        step(&t, a, b.l3)
        let result = UInt256(t.0, t.1, t.2, t.3)
        let (reduced, borrow) = result.subtractingReportingOverflow(Modulus.modulus)
        return t.4 != 0 || !borrow ? reduced : result
    }

    /// Five limbs of running sum, the last 0 or 1.
    typealias Accumulator = (UInt64, UInt64, UInt64, UInt64, UInt64)

    /// One word of Montgomery multiplication: t = (t + a * word + q * m) / 2^64, with q chosen so
    /// that the division is exact.
    @inline(__always)
    static func step(_ t: inout Accumulator, _ a: UInt256, _ word: UInt64) {
        let m = Modulus.modulus
        var carry: UInt64
        (t.0, carry) = multiplyAdd(a.l0, word, t.0, 0)
        (t.1, carry) = multiplyAdd(a.l1, word, t.1, carry)
        (t.2, carry) = multiplyAdd(a.l2, word, t.2, carry)
        (t.3, carry) = multiplyAdd(a.l3, word, t.3, carry)
        let (top, topCarry) = t.4.addingReportingOverflow(carry)
        let q = t.0 &* Modulus.inverseNegated
        (_, carry) = multiplyAdd(q, m.l0, t.0, 0)
        (t.0, carry) = multiplyAdd(q, m.l1, t.1, carry)
        (t.1, carry) = multiplyAdd(q, m.l2, t.2, carry)
        (t.2, carry) = multiplyAdd(q, m.l3, t.3, carry)
        let (sum, sumCarry) = top.addingReportingOverflow(carry)
        t.3 = sum
        t.4 = (topCarry ? 1 : 0) + (sumCarry ? 1 : 0)
    }
}
