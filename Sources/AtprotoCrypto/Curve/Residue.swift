/// A prime modulus and the representation its residues are kept in.
///
/// Each curve has two: its field prime p and its group order n. Most use Montgomery form
/// (``MontgomeryModulus``); secp256k1's p = 2^256 - 2^32 - 977 reduces faster by its special form.
/// Implementations return literals, so that once the generic code is specialised the constants fold
/// into the instructions.
protocol PrimeModulus: Sendable {
    /// The modulus m: odd, prime, and above 2^255 (so one subtraction reduces any 256-bit value).
    static var modulus: UInt256 { get }
    /// The representation of `value` (below m).
    static func represent(_ value: UInt256) -> UInt256
    /// The value a representation stands for.
    static func value(of representation: UInt256) -> UInt256
    /// The representation of 1.
    static var oneRepresentation: UInt256 { get }
    /// The representation of the product of two represented values.
    static func product(_ a: UInt256, _ b: UInt256) -> UInt256
    /// The representation of the square of a represented value.
    static func square(_ a: UInt256) -> UInt256
    /// The representation of a 512-bit product of two representations (high * 2^256 + low):
    /// reduced modulo m for plain values, divided by R as well for Montgomery form.
    static func reduce(_ low: UInt256, _ high: UInt256) -> UInt256
}

extension PrimeModulus {
    /// The full 512-bit product, then the modulus's own reduction.
    @inline(__always)
    static func product(_ a: UInt256, _ b: UInt256) -> UInt256 {
        let (low, high) = WideArithmetic.product(a, b)
        return reduce(low, high)
    }

    /// The full 512-bit square, then the modulus's own reduction.
    @inline(__always)
    static func square(_ a: UInt256) -> UInt256 {
        let (low, high) = WideArithmetic.square(a)
        return reduce(low, high)
    }
}

/// An integer modulo `Modulus.modulus`, kept in the modulus's representation and always fully
/// reduced, so that equal values have equal limbs.
struct Residue<Modulus: PrimeModulus>: Sendable, Equatable {
    /// The representation, below m.
    var representation: UInt256

    /// Wraps limbs already in the representation.
    @inline(__always)
    init(representation: UInt256) {
        self.representation = representation
    }

    /// The residue of `value`, or nil when `value` is not below the modulus.
    init?(_ value: UInt256) {
        guard value < Modulus.modulus else { return nil }
        self.representation = Modulus.represent(value)
    }

    /// The residue of any 256-bit `value` (reduced modulo m).
    init(reducing value: UInt256) {
        var reduced = value
        while !(reduced < Modulus.modulus) {
            reduced = reduced.subtractingReportingOverflow(Modulus.modulus).partialValue
        }
        self.representation = Modulus.represent(reduced)
    }

    /// The integer, in 0..<m.
    var value: UInt256 { Modulus.value(of: representation) }

    static var zero: Residue { Residue(representation: .zero) }

    static var one: Residue { Residue(representation: Modulus.oneRepresentation) }

    var isZero: Bool { representation.isZero }

    @inline(__always)
    static func + (lhs: Residue, rhs: Residue) -> Residue {
        let (sum, carry) = lhs.representation.addingReportingOverflow(rhs.representation)
        let (reduced, borrow) = sum.subtractingReportingOverflow(Modulus.modulus)
        return Residue(representation: .select(carry || !borrow, reduced, sum))
    }

    @inline(__always)
    static func - (lhs: Residue, rhs: Residue) -> Residue {
        let (difference, borrow) = lhs.representation.subtractingReportingOverflow(rhs.representation)
        let corrected = difference.addingReportingOverflow(Modulus.modulus).partialValue
        return Residue(representation: .select(borrow, corrected, difference))
    }

    @inline(__always)
    static prefix func - (operand: Residue) -> Residue {
        zero - operand
    }

    @inline(__always)
    static func * (lhs: Residue, rhs: Residue) -> Residue {
        Residue(representation: Modulus.product(lhs.representation, rhs.representation))
    }

    /// self * self.
    @inline(__always)
    func squared() -> Residue {
        Residue(representation: Modulus.square(representation))
    }

    /// self + self.
    @inline(__always)
    func doubled() -> Residue { self + self }

    /// 3 * self, with one reduction instead of two modular additions.
    @inline(__always)
    func tripled() -> Residue {
        let (twice, top) = representation.shiftedLeft(by: 1)
        let (sum, carry) = twice.addingReportingOverflow(representation)
        return Residue(reducingSmallMultiple: sum, top: top &+ word(carry))
    }

    /// 4 * self, with one reduction instead of two modular doublings.
    @inline(__always)
    func quadrupled() -> Residue {
        let (low, top) = representation.shiftedLeft(by: 2)
        return Residue(reducingSmallMultiple: low, top: top)
    }

    /// 8 * self, with one reduction instead of three modular doublings.
    @inline(__always)
    func octupled() -> Residue {
        let (low, top) = representation.shiftedLeft(by: 3)
        return Residue(reducingSmallMultiple: low, top: top)
    }

    /// The residue of top * 2^256 + low, for top below 8 and a modulus m above 2^256 - 2^253 (every
    /// modulus here: each is within 2^225 of 2^256). With c = 2^256 - m, 2^256 = c mod m, so the
    /// value is low + top * c, which is below 2^257; past 2^256 once more it wraps to a small number
    /// and c goes in again; then one conditional subtraction. Representations scale linearly
    /// (Montgomery form too), so this serves every representation.
    @inline(__always)
    init(reducingSmallMultiple low: UInt256, top: UInt64) {
        let c = UInt256.zero.subtractingReportingOverflow(Modulus.modulus).partialValue
        var k: UInt64
        var r0: UInt64
        var r1: UInt64
        var r2: UInt64
        var r3: UInt64
        (r0, k) = multiplyAdd(top, c.l0, low.l0, 0)
        (r1, k) = multiplyAdd(top, c.l1, low.l1, k)
        (r2, k) = multiplyAdd(top, c.l2, low.l2, k)
        (r3, k) = multiplyAdd(top, c.l3, low.l3, k)
        // top * c < 2^256, so k (the part past 2^256) is 0 or 1; when 1, r is below top * c and
        // adding c cannot carry. Rare, so a branch is fine (public data).
        var sum = UInt256(r0, r1, r2, r3)
        if k != 0 {
            sum = sum.addingReportingOverflow(c).partialValue
        }
        let (reduced, borrow) = sum.subtractingReportingOverflow(Modulus.modulus)
        self.init(representation: .select(!borrow, reduced, sum))
    }

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

    /// A square root, or nil when there is none. Requires m = 3 mod 4, where a root of a quadratic
    /// residue a is a^((m+1)/4).
    func squareRoot() -> Residue? {
        let exponent = Modulus.modulus.shiftedRightOne().shiftedRightOne().addingReportingOverflow(.one).partialValue
        let root = power(exponent)
        return root.squared() == self ? root : nil
    }
}
