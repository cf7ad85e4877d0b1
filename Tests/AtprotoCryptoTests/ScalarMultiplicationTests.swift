import SeededRandom
import XCTest

@testable import AtprotoCrypto

/// The fast u1 G + u2 Q (generator tables, wNAF, Straus-Shamir, secp256k1's endomorphism) against
/// plain double-and-add over the bits of each scalar, on random and edge-case scalars: a wrong table
/// entry, wNAF digit, endomorphism constant or split shows up as a different point.
final class ScalarMultiplicationTests: XCTestCase {
    func testLinearCombinationMatchesDoubleAndAddOnSecp256k1() throws {
        try checkLinearCombination(Secp256k1.self, extraScalars: Self.secp256k1SplitEdges)
    }

    func testLinearCombinationMatchesDoubleAndAddOnP256() throws {
        try checkLinearCombination(P256.self, extraScalars: [])
    }

    /// Scalars whose endomorphism halves are the largest seen in 300,000 random ones (each half
    /// positive and negative, 128 bits), and lambda and -lambda (halves (0, 1) and (0, -1)).
    static let secp256k1SplitEdges: [UInt256] = [
        "e0c84487c69f4e6a15716bf386ca300c37bc4d978e1858c92b46633ec8e790a1",
        "c854b684ee8651bb923c6267de928abe03dabe80d718f5f7b585210689e80d41",
        "847de400261e79419b1674c92a41e362f6c226ee92b7f67429044a99507006a8",
        "5ce783d020e069a2643f000650653a63746f0aa17b6efbe2d2ba7bf8268e9bd5",
        "ac9c52b33fa3cf1f5ad9e3fd77ed9ba4a880b9fc8ec739c2e0cfc810b51283ce",
        "5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd73",
    ].map { scalar($0) }

    /// k = k1 + k2 * lambda (mod n) with both halves below 2^128, for random and edge scalars.
    func testTheEndomorphismSplitRecombinesWithSmallHalves() throws {
        var random = SplitMix64(seed: 27)
        let n = Secp256k1.OrderModulus.modulus
        let lambda = try XCTUnwrap(Secp256k1.Scalar(Secp256k1Endomorphism.lambda))
        let scalars =
            edgeScalars(Secp256k1.self) + Self.secp256k1SplitEdges + (0..<2000).map { _ in random.scalar(below: n) }
        for k in scalars {
            let split = Secp256k1Endomorphism.split(k)
            XCTAssertTrue(split.k1.bitWidth <= 128 && split.k2.bitWidth <= 128, "halves of \(k)")
            let k1 = try signed(split.k1, negative: split.k1Negative, Secp256k1.self)
            let k2 = try signed(split.k2, negative: split.k2Negative, Secp256k1.self)
            XCTAssertEqual((k1 + k2 * lambda).value, k, "k1 + k2 lambda for \(k)")
        }
        let lambdaSplit = Secp256k1Endomorphism.split(Secp256k1Endomorphism.lambda)
        XCTAssertTrue(lambdaSplit.k1.isZero && lambdaSplit.k2 == .one && !lambdaSplit.k2Negative)
    }

    /// lambda * (x, y) = (beta * x, y): the two constants belong together.
    func testBetaIsLambdaOnTheCurve() throws {
        var random = SplitMix64(seed: 5)
        for _ in 0..<4 {
            let point = try XCTUnwrap(
                multiple(random.scalar(below: Secp256k1.OrderModulus.modulus), Secp256k1.generator).affine)
            let expected = try XCTUnwrap(multiple(Secp256k1Endomorphism.lambda, point).affine)
            XCTAssertEqual(AffinePoint(x: point.x * Secp256k1Endomorphism.beta, y: point.y), expected)
        }
    }

    /// Every entry of the shared generator tables is the odd multiple it stands for.
    func testGeneratorTablesHoldTheOddMultiples() throws {
        try checkTable(P256.generatorTable, of: P256.generator)
        try checkTable(Secp256k1.generatorTable, of: Secp256k1.generator)
        let high = try XCTUnwrap(multiple(UInt256(0, 0, 1, 0), Secp256k1.generator).affine)
        try checkTable(Secp256k1.generatorHighTable, of: high)
    }

    /// wNAF digits add back up to the scalar, are odd and below 2^(w-1) in size, and no two nonzero
    /// digits are closer than w.
    func testWNAFDigitsAreWellFormed() {
        var random = SplitMix64(seed: 9)
        let scalars =
            [UInt256.zero, .one, UInt256(~0, ~0, ~0, ~0), UInt256(0, 0, 0, 1 << 63)]
            + (0..<200).map { _ in UInt256(random.next(), random.next(), random.next(), random.next()) }
        for width in [2, 4, 5, 8, 12, 16] {
            for scalar in scalars {
                for negated in [false, true] {
                    var digits = [Int16](repeating: 99, count: 257)
                    let count = digits.withUnsafeMutableBufferPointer {
                        WNAF.digits(of: scalar, width: width, negated: negated, into: $0)
                    }
                    var sum = UInt256.zero
                    var lastNonzero = -width
                    for index in stride(from: 256, through: 0, by: -1) {
                        let digit = Int(digits[index])
                        sum = sum.wrappingAdd(sum)
                        sum =
                            digit >= 0
                            ? sum.wrappingAdd(UInt256(UInt64(digit), 0, 0, 0))
                            : sum.wrappingSubtract(UInt256(UInt64(-digit), 0, 0, 0))
                        guard digit != 0 else { continue }
                        XCTAssertTrue(digit & 1 == 1 && abs(digit) < 1 << (width - 1), "digit \(digit), width \(width)")
                        XCTAssertTrue(index < count)
                        if lastNonzero >= 0 { XCTAssertGreaterThanOrEqual(lastNonzero - index, width) }
                        lastNonzero = index
                    }
                    XCTAssertEqual(sum, negated ? UInt256.zero.wrappingSubtract(scalar) : scalar, "width \(width)")
                }
            }
        }
    }

    private func checkLinearCombination<Curve: ShortWeierstrassCurve>(
        _: Curve.Type, extraScalars: [UInt256]
    ) throws {
        var random = SplitMix64(seed: 2026)
        let n = Curve.OrderModulus.modulus
        let t = random.scalar(below: n)
        let q = try XCTUnwrap(multiple(t, Curve.generator).affine)
        let edges = edgeScalars(Curve.self) + extraScalars
        var cases: [(UInt256, UInt256, AffinePoint<Curve>)] = []
        for u1 in edges {
            for u2 in edges { cases.append((u1, u2, q)) }
        }
        for _ in 0..<150 {
            cases.append((random.scalar(below: n), random.scalar(below: n), q))
        }
        // Equal points meet in the additions (Q = G, the same digits from both tables), and
        // opposite points cancel (Q = -G).
        for u in [UInt256.one, UInt256(3, 0, 0, 0), UInt256(5, 0, 0, 0), random.scalar(below: n)] + edges {
            cases.append((u, u, Curve.generator))
            cases.append((u, u, Curve.generator.negated))
        }
        for (u1, u2, point) in cases {
            let fast = Curve.linearCombination(u1, u2, point)
            let slow = multiple(u1, Curve.generator).adding(multiple(u2, point))
            XCTAssertEqual(fast.affine, slow.affine, "\(Curve.name): \(u1) G + \(u2) Q")
        }
        // A sum that is the point at infinity though neither term is: u1 = -u2 t, so u1 G + u2 Q = O.
        for _ in 0..<20 {
            let u2 = random.scalar(below: n)
            let product = try XCTUnwrap(Curve.Scalar(u2)) * (try XCTUnwrap(Curve.Scalar(t)))
            let u1 = (-product).value
            XCTAssertTrue(Curve.linearCombination(u1, u2, q).isInfinity, "\(Curve.name): \(u1) G + \(u2) Q")
        }
    }

    private func checkTable<Curve: ShortWeierstrassCurve>(
        _ table: [AffinePoint<Curve>], of point: AffinePoint<Curve>
    ) throws {
        XCTAssertEqual(table.count, 1 << (Curve.generatorWindow - 2))
        var expected = JacobianPoint(point)
        let twice = expected.doubled()
        for entry in table {
            XCTAssertEqual(entry, expected.affine)
            expected = expected.adding(twice)
        }
    }

    /// 0, 1, 2, n-1, n-2, (n-1)/2, (n+1)/2, 2^128 - 1, 2^128, 2^255 - 1 and alternating bits.
    private func edgeScalars<Curve: ShortWeierstrassCurve>(_: Curve.Type) -> [UInt256] {
        let n = Curve.OrderModulus.modulus
        return [
            .zero, .one, UInt256(2, 0, 0, 0), n.wrappingSubtract(.one), n.wrappingSubtract(UInt256(2, 0, 0, 0)),
            n.shiftedRightOne(), n.shiftedRightOne().wrappingAdd(.one), UInt256(~0, ~0, 0, 0), UInt256(0, 0, 1, 0),
            UInt256(~0, ~0, ~0, ~0 >> 1),
            UInt256(0x5555_5555_5555_5555, 0xAAAA_AAAA_AAAA_AAAA, 0x5555_5555_5555_5555, 0x2AAA_AAAA_AAAA_AAAA),
        ]
    }

    /// k P by double-and-add over the bits of k, most significant first.
    private func multiple<Curve: ShortWeierstrassCurve>(_ k: UInt256, _ point: AffinePoint<Curve>) -> JacobianPoint<
        Curve
    > {
        var result = JacobianPoint<Curve>.infinity
        for index in stride(from: 255, through: 0, by: -1) {
            result = result.doubled()
            if k.bit(index) { result = result.adding(point) }
        }
        return result
    }

    private func signed<Curve: ShortWeierstrassCurve>(
        _ magnitude: UInt256, negative: Bool, _: Curve.Type
    ) throws -> Curve.Scalar {
        let value = try XCTUnwrap(Curve.Scalar(magnitude))
        return negative ? -value : value
    }

    private static func scalar(_ hex: String) -> UInt256 {
        let bytes = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
        return UInt256(bigEndian: bytes) ?? .zero
    }
}

/// A small seeded generator, so that a failure repeats.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value below `bound` (rejection sampling).
    mutating func scalar(below bound: UInt256) -> UInt256 {
        while true {
            let candidate = UInt256(next(), next(), next(), next())
            if candidate < bound { return candidate }
        }
    }
}
