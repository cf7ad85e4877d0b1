/// A 256-bit unsigned integer as four 64-bit limbs, least significant first.
///
/// The plain integer type under the field and scalar arithmetic: byte conversion, comparison, and
/// addition and subtraction that report their carry. Values are public data (keys, signatures,
/// digests), so nothing here needs to run in constant time.
struct UInt256: Sendable, Hashable, Comparable, CustomStringConvertible {
    var l0: UInt64
    var l1: UInt64
    var l2: UInt64
    var l3: UInt64

    /// Creates a value from its limbs, least significant first.
    @inline(__always)
    init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64) {
        self.l0 = l0
        self.l1 = l1
        self.l2 = l2
        self.l3 = l3
    }

    /// Zero.
    static var zero: UInt256 { UInt256(0, 0, 0, 0) }

    /// One.
    static var one: UInt256 { UInt256(1, 0, 0, 0) }

    /// Reads 32 big-endian bytes; nil for any other length.
    init?(bigEndian bytes: ArraySlice<UInt8>) {
        guard bytes.count == 32 else { return nil }
        self = bytes.withUnsafeBytes { raw in
            UInt256(
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)))
        }
    }

    /// Reads 32 big-endian bytes; nil for any other length.
    init?(bigEndian bytes: [UInt8]) {
        self.init(bigEndian: bytes[...])
    }

    /// The value as 32 big-endian bytes.
    var bigEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for limb in [l3, l2, l1, l0] {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift)))
            }
        }
        return bytes
    }

    /// Whether the value is zero.
    var isZero: Bool { (l0 | l1 | l2 | l3) == 0 }

    /// Whether the lowest bit is set.
    var isOdd: Bool { l0 & 1 == 1 }

    /// Bit `index` (0 is the least significant); `index` must be in 0..<256.
    @inline(__always)
    func bit(_ index: Int) -> Bool {
        limb(index >> 6) >> UInt64(index & 63) & 1 == 1
    }

    /// Limb `index` (0 is the least significant), or 0 past the top.
    @inline(__always)
    func limb(_ index: Int) -> UInt64 {
        switch index {
        case 0: l0
        case 1: l1
        case 2: l2
        case 3: l3
        default: 0
        }
    }

    /// The lowest `count` bits (at most 64) starting at bit `index`, as an integer; bits past the
    /// top read as zero.
    @inline(__always)
    func bits(_ index: Int, count: Int) -> UInt64 {
        let limbIndex = index >> 6
        let shift = UInt64(index & 63)
        var word = limb(limbIndex) >> shift
        if shift != 0 {
            word |= limb(limbIndex + 1) << (64 - shift)
        }
        return count == 64 ? word : word & ((1 << UInt64(count)) - 1)
    }

    /// The number of significant bits: 0 for zero, 256 when the top bit is set.
    var bitWidth: Int {
        if l3 != 0 { return 256 - l3.leadingZeroBitCount }
        if l2 != 0 { return 192 - l2.leadingZeroBitCount }
        if l1 != 0 { return 128 - l1.leadingZeroBitCount }
        return 64 - l0.leadingZeroBitCount
    }

    /// `self + other` modulo 2^256, and whether it carried out of the top.
    @inline(__always)
    func addingReportingOverflow(_ other: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        let (s0, c0) = l0.addingReportingOverflow(other.l0)
        let (s1, c1) = addWithCarry(l1, other.l1, c0)
        let (s2, c2) = addWithCarry(l2, other.l2, c1)
        let (s3, c3) = addWithCarry(l3, other.l3, c2)
        return (UInt256(s0, s1, s2, s3), c3)
    }

    /// `self - other` modulo 2^256, and whether it borrowed (that is, `other > self`).
    @inline(__always)
    func subtractingReportingOverflow(_ other: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        let (d0, b0) = l0.subtractingReportingOverflow(other.l0)
        let (d1, b1) = subtractWithBorrow(l1, other.l1, b0)
        let (d2, b2) = subtractWithBorrow(l2, other.l2, b1)
        let (d3, b3) = subtractWithBorrow(l3, other.l3, b2)
        return (UInt256(d0, d1, d2, d3), b3)
    }

    /// The value shifted right by one bit, with `topBit` shifted in at the top.
    @inline(__always)
    func shiftedRightOne(topBit: Bool = false) -> UInt256 {
        UInt256(
            l0 >> 1 | l1 << 63,
            l1 >> 1 | l2 << 63,
            l2 >> 1 | l3 << 63,
            l3 >> 1 | (topBit ? 1 << 63 : 0))
    }

    /// The value times 2^shift (shift in 1...63), as the low 256 bits and the bits shifted out.
    @inline(__always)
    func shiftedLeft(by shift: UInt64) -> (low: UInt256, top: UInt64) {
        let back = 64 - shift
        return (
            UInt256(l0 &<< shift, l1 &<< shift | l0 &>> back, l2 &<< shift | l1 &>> back, l3 &<< shift | l2 &>> back),
            l3 &>> back
        )
    }

    /// `ifTrue` when `condition`, else `ifFalse`, chosen by masking rather than a jump (a jump on a
    /// carry is mispredicted half the time).
    @inline(__always)
    static func select(_ condition: Bool, _ ifTrue: UInt256, _ ifFalse: UInt256) -> UInt256 {
        let mask = 0 &- word(condition)
        return UInt256(
            ifTrue.l0 & mask | ifFalse.l0 & ~mask,
            ifTrue.l1 & mask | ifFalse.l1 & ~mask,
            ifTrue.l2 & mask | ifFalse.l2 & ~mask,
            ifTrue.l3 & mask | ifFalse.l3 & ~mask)
    }

    static func < (lhs: UInt256, rhs: UInt256) -> Bool {
        lhs.subtractingReportingOverflow(rhs).overflow
    }

    /// The value in hexadecimal, 64 digits.
    var description: String {
        [l3, l2, l1, l0].map { limb in
            let digits = String(limb, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}

/// `a + b + carry` and its carry out.
@inline(__always)
func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: Bool) -> (UInt64, Bool) {
    let (sum, overflow1) = a.addingReportingOverflow(b)
    let (total, overflow2) = sum.addingReportingOverflow(word(carry))
    return (total, overflow1 != overflow2)
}

/// `a - b - borrow` and its borrow out.
@inline(__always)
func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: Bool) -> (UInt64, Bool) {
    let (difference, overflow1) = a.subtractingReportingOverflow(b)
    let (total, overflow2) = difference.subtractingReportingOverflow(word(borrow))
    return (total, overflow1 != overflow2)
}

/// `a * b + c + d` as (low, high) limbs; it cannot overflow 128 bits.
@inline(__always)
func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (low: UInt64, high: UInt64) {
    let (high, low) = a.multipliedFullWidth(by: b)
    let (sum1, overflow1) = low.addingReportingOverflow(c)
    let (sum2, overflow2) = sum1.addingReportingOverflow(d)
    return (sum2, high &+ word(overflow1) &+ word(overflow2))
}

/// 1 for true, 0 for false, without a branch (`flag ? 1 : 0` can compile to a jump, which costs
/// dearly on carries that go either way at random).
@inline(__always)
func word(_ flag: Bool) -> UInt64 {
    UInt64(unsafeBitCast(flag, to: UInt8.self))
}
