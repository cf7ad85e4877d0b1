import SeededRandom
import XCTest

@testable import AtprotoCrypto

/// 3x, 4x and 8x with one reduction (used by point doubling) against the modular additions they
/// replace, on every modulus, for random representations and for the edges of the reduction: 0, 1,
/// m - 1, m - 2, halves of m, and 2^254 - 1, 2^255 - 1, 2^256 - 2^253 - 1, whose shifted low half
/// plus top * (2^256 - m) passes 2^256 again.
final class SmallMultipleTests: XCTestCase {
    func testSmallMultiplesMatchRepeatedAddition() {
        check(Secp256k1.FieldModulus.self)
        check(Secp256k1.OrderModulus.self)
        check(P256.FieldModulus.self)
        check(P256.OrderModulus.self)
    }

    /// The reduction needs 2^256 - m below 2^253 (so 7 * (2^256 - m) stays below 2^256).
    func testEveryModulusIsCloseEnoughToTwoToThe256() {
        for modulus in [
            Secp256k1.FieldModulus.modulus, Secp256k1.OrderModulus.modulus, P256.FieldModulus.modulus,
            P256.OrderModulus.modulus,
        ] {
            XCTAssertGreaterThanOrEqual(modulus.l3, 0xE000_0000_0000_0000)
        }
    }

    private func check<M: PrimeModulus>(_: M.Type) {
        let m = M.modulus
        var representations: [UInt256] = [
            .zero, .one, UInt256(2, 0, 0, 0),
            m.subtractingReportingOverflow(.one).partialValue,
            m.subtractingReportingOverflow(UInt256(2, 0, 0, 0)).partialValue,
            m.shiftedRightOne(), m.shiftedRightOne().addingReportingOverflow(.one).partialValue,
            UInt256(~0, ~0, ~0, 0x3FFF_FFFF_FFFF_FFFF), UInt256(~0, ~0, ~0, 0x7FFF_FFFF_FFFF_FFFF),
            UInt256(~0, ~0, ~0, 0xDFFF_FFFF_FFFF_FFFF), UInt256(0, 0, 0, 1 << 63),
        ]
        var generator = SplitMix64(seed: 3)
        representations += (0..<3000).map { _ in generator.scalar(below: m) }
        for representation in representations {
            XCTAssertLessThan(representation, m)
            let a = Residue<M>(representation: representation)
            let twice = a + a
            let four = twice + twice
            XCTAssertEqual(a.tripled(), twice + a, "3 * \(representation)")
            XCTAssertEqual(a.quadrupled(), four, "4 * \(representation)")
            XCTAssertEqual(a.octupled(), four + four, "8 * \(representation)")
        }
    }
}
