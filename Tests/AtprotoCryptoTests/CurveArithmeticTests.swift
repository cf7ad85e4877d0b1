import SeededRandom
import XCTest

@testable import AtprotoCrypto

/// The field and scalar arithmetic of both curves against products computed independently (Python
/// integers), and its algebraic laws.
final class CurveArithmeticTests: XCTestCase {
    /// (a, b, a * b mod m) for each modulus, from Python's arbitrary-precision integers.
    func testProductsMatchKnownAnswers() throws {
        try checkProducts(
            Secp256k1.FieldModulus.self,
            [
                (
                    "d23f0824128b2f330c5c7fd0a6a3a4506513270e269e0d37f2a74de452e6b438",
                    "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2e",
                    "2dc0f7dbed74d0ccf3a3802f595c5baf9aecd8f1d961f2c80d58b21aad1947f7"
                ),
                (
                    "36f675cc81e74ef5e8e25d940ed904759531985d5d9dc9f81818e811892f902b",
                    "8d116ece1738f7d93d9c172411e20b8f6b0d549b6f03675a1600a35a099950d8",
                    "acaf6802cc06019b55ace5f402272552067abea1dd4ebd43a1193560ec081c95"
                ),
            ])
        try checkProducts(
            Secp256k1.OrderModulus.self,
            [
                (
                    "a170b33839263059f28c105d1fb17c2390c192cfd3ac94af0f21ddb66cad4a26",
                    "0cb1e29c658cda1495e60af593bd04cf0fd630f1f29d0da9953f48f1a09f76b5",
                    "175c21fe57b951f572425c07f46e4a69b5f286b36567684bc84afb8e3a872520"
                ),
                (
                    "6b4cb2424a23d5962217beaddbc496cb8e81973e0becd7b03898d190f9ebdacc",
                    "ae97ba94d0eda82f8f6d05584ef8aa38922766581e27a1c08a6a63ec24ede6a4",
                    "e3e22f6c3ae3af535a298a2e9cbfd1f81ce3d2d7dbfb09d77bd51fdf5e0782ae"
                ),
            ])
        try checkProducts(
            P256.FieldModulus.self,
            [
                (
                    "18f135d25f557203301850c5a38fd547923a736994e3bf911a61dbe22e44158b",
                    "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe",
                    "e70eca2ca0aa8dfdcfe7af3a5c702ab86dc58c976b1c406ee59e241dd1bbea74"
                ),
                (
                    "7f15052434b9b5df9e7769b10f4205b4907a70c31012f037b64ce4228c38fb29",
                    "ec66a78795e761d17731af10506bf2efc6f877186d76b07e881ed162ae2eb154",
                    "f0584be2a02d36a9eb8c8efdd78c295f6a15769bc0d827d1933282ec7cc441f3"
                ),
            ])
        try checkProducts(
            P256.OrderModulus.self,
            [
                (
                    "c7a2ea20b2f14c942e05319acb5c74273f98e2774cbd87ad5c90a9587403e430",
                    "57ee05cde00902c77ebff206867347214cdd2055930d6eaf14f4733f3e7d1bfb",
                    "c4070e4b765a2031598128dd90e9695518d640393f1b8b27443d2b1aa9556d83"
                ),
                (
                    "830e07bc1e398f1012bd4acefaecbd389be4bcfc49b64a0872e6cc3ababced20",
                    "6bf46c697d2caf82eeeacbe226e875555790f82ec1d3fcff2a3af4d46b0a18e8",
                    "ea754feb1065af7e2e7d36334edb72a346215ba9f1bb5d6ddad5d72b6ae6c6d0"
                ),
            ])
    }

    func testFieldLawsHoldForEveryModulus() throws {
        try checkLaws(Secp256k1.FieldModulus.self, squareRoots: true)
        try checkLaws(Secp256k1.OrderModulus.self, squareRoots: false)
        try checkLaws(P256.FieldModulus.self, squareRoots: true)
        try checkLaws(P256.OrderModulus.self, squareRoots: false)
    }

    /// Values next to the modulus, where every carry of the reductions is taken.
    func testProductsAndSquaresNextToTheModulus() throws {
        try checkEdges(Secp256k1.FieldModulus.self)
        try checkEdges(Secp256k1.OrderModulus.self)
        try checkEdges(P256.FieldModulus.self)
        try checkEdges(P256.OrderModulus.self)
    }

    private func checkEdges<M: PrimeModulus>(_: M.Type) throws {
        let m = M.modulus
        let minusOne = try XCTUnwrap(Residue<M>(m.subtractingReportingOverflow(.one).partialValue))
        let minusTwo = try XCTUnwrap(Residue<M>(m.subtractingReportingOverflow(UInt256(2, 0, 0, 0)).partialValue))
        let two = try XCTUnwrap(Residue<M>(UInt256(2, 0, 0, 0)))
        XCTAssertEqual((minusOne * minusOne).value, .one, "(m-1)^2 = 1")
        XCTAssertEqual(minusOne.squared().value, .one)
        XCTAssertEqual((minusOne * minusTwo).value, UInt256(2, 0, 0, 0), "(m-1)(m-2) = 2")
        XCTAssertEqual(minusTwo.squared().value, UInt256(4, 0, 0, 0), "(m-2)^2 = 4")
        XCTAssertEqual(minusOne + minusOne, minusTwo)
        XCTAssertEqual(minusOne + two, .one)
        XCTAssertEqual(Residue<M>.zero - .one, minusOne)
        XCTAssertEqual(minusOne.inverse(), minusOne)
    }

    /// The binary inversion used on signatures' s agrees with Fermat's on random values and on
    /// values whose Euclidean runs are extreme (1, 2, powers of two, m - 1, m - 2, (m + 1) / 2).
    func testVariableTimeInverseMatchesFermat() throws {
        try checkVariableTimeInverse(Secp256k1.OrderModulus.self)
        try checkVariableTimeInverse(P256.OrderModulus.self)
        try checkVariableTimeInverse(P256.FieldModulus.self)
    }

    private func checkVariableTimeInverse<M: MontgomeryModulus>(_: M.Type) throws {
        let m = M.modulus
        var values: [UInt256] = [
            .one, UInt256(2, 0, 0, 0), UInt256(3, 0, 0, 0), UInt256(0, 1, 0, 0), UInt256(0, 0, 0, 1 << 63),
            m.subtractingReportingOverflow(.one).partialValue,
            m.subtractingReportingOverflow(UInt256(2, 0, 0, 0)).partialValue,
            m.shiftedRightOne().addingReportingOverflow(.one).partialValue, UInt256(~0, ~0, ~0, 0),
        ]
        var generator = SplitMix64(seed: 77)
        values += (0..<300).map { _ in generator.scalar(below: m) }
        for value in values where !value.isZero {
            let residue = try XCTUnwrap(Residue<M>(value))
            XCTAssertEqual(residue.variableTimeInverse(), residue.inverse(), "inverse of \(value)")
            XCTAssertEqual(residue * residue.variableTimeInverse(), .one)
        }
        XCTAssertEqual(Residue<M>.zero.variableTimeInverse(), .zero)
    }

    func testValuesNotBelowTheModulusAreRefused() {
        XCTAssertNil(Residue<Secp256k1.FieldModulus>(Secp256k1.FieldModulus.modulus))
        XCTAssertNil(Residue<P256.OrderModulus>(UInt256(~0, ~0, ~0, ~0)))
        let reduced = Residue<P256.FieldModulus>(reducing: UInt256(~0, ~0, ~0, ~0))
        // 2^256 - 1 - p for P-256.
        XCTAssertEqual(reduced.value.description, "00000000fffffffeffffffffffffffffffffffff000000000000000000000000")
    }

    func testGeneratorsAreOnTheirCurves() {
        XCTAssertTrue(Secp256k1.generator.isOnCurve)
        XCTAssertTrue(P256.generator.isOnCurve)
        XCTAssertFalse(AffinePoint<Secp256k1>(x: Secp256k1.generator.x, y: Secp256k1.generator.x).isOnCurve)
    }

    /// n * G is the point at infinity and (n - 1) * G is -G: the order and the group law agree.
    func testTheOrderAnnihilatesTheGenerator() {
        checkOrder(Secp256k1.self)
        checkOrder(P256.self)
    }

    private func checkOrder<Curve: ShortWeierstrassCurve>(_: Curve.Type) {
        let n = Curve.OrderModulus.modulus
        let nMinusOne = n.subtractingReportingOverflow(.one).partialValue
        XCTAssertEqual(Curve.linearCombination(nMinusOne, .zero, Curve.generator).affine, Curve.generator.negated)
        // n G as n-1 times G plus G from the other side of the combination.
        XCTAssertTrue(Curve.linearCombination(nMinusOne, .one, Curve.generator).isInfinity)
        let two = Curve.linearCombination(.one, .one, Curve.generator).affine
        XCTAssertEqual(two, JacobianPoint(Curve.generator).doubled().affine)
    }

    private func checkProducts<M: PrimeModulus>(_: M.Type, _ cases: [(String, String, String)]) throws {
        for (a, b, product) in cases {
            let x = try XCTUnwrap(Residue<M>(try value(a)))
            let y = try XCTUnwrap(Residue<M>(try value(b)))
            XCTAssertEqual((x * y).value, try value(product), "\(a) * \(b)")
            XCTAssertEqual((y * x).value, try value(product))
        }
    }

    private func checkLaws<M: PrimeModulus>(_: M.Type, squareRoots: Bool) throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let a = Residue<M>(
                reducing: UInt256(generator.next(), generator.next(), generator.next(), generator.next()))
            let b = Residue<M>(
                reducing: UInt256(generator.next(), generator.next(), generator.next(), generator.next()))
            let c = Residue<M>(
                reducing: UInt256(generator.next(), generator.next(), generator.next(), generator.next()))
            XCTAssertEqual(Residue<M>(a.value), a, "into and out of Montgomery form")
            XCTAssertEqual((a * b) * c, a * (b * c))
            XCTAssertEqual(a * (b + c), a * b + a * c)
            XCTAssertEqual(a - b + b, a)
            XCTAssertEqual(a + (-a), .zero)
            XCTAssertEqual(a.doubled(), a + a)
            XCTAssertEqual(a.squared(), a * a, "the squaring path agrees with the product")
            if !a.isZero {
                XCTAssertEqual(a * a.inverse(), .one)
            }
            if squareRoots {
                let square = a.squared()
                let root = try XCTUnwrap(square.squareRoot())
                XCTAssertTrue(root == a || root == -a)
            }
        }
        XCTAssertEqual(Residue<M>.zero.inverse(), .zero)
        XCTAssertEqual(Residue<M>.one.value, .one)
    }

    private func value(_ hex: String) throws -> UInt256 {
        try XCTUnwrap(UInt256(bigEndian: try TestData.hex(hex)))
    }
}
