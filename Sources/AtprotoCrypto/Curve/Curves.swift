/// A curve y^2 = x^3 + ax + b over a prime field, with a prime group order: the two atproto curves.
///
/// Only a = 0 (secp256k1) and a = -3 (P-256) are supported; both have cheap doubling formulas.
protocol ShortWeierstrassCurve: Sendable {
    /// The field prime p.
    associatedtype FieldModulus: PrimeModulus
    /// The group order n.
    associatedtype OrderModulus: MontgomeryModulus

    /// The curve's name, for messages.
    static var name: String { get }
    /// Whether a = 0; otherwise a = -3.
    static var aIsZero: Bool { get }
    /// The constant b.
    static var b: Residue<FieldModulus> { get }
    /// The generator G.
    static var generator: AffinePoint<Self> { get }
    /// G, 3G, 5G, ... (2^(generatorWindow-2) odd multiples), computed once.
    static var generatorTable: [AffinePoint<Self>] { get }
    /// The wNAF window width for G, whose table is shared: 2^(width-2) odd multiples.
    static var generatorWindow: Int { get }
    /// u1 * G + u2 * Q.
    static func linearCombination(_ u1: UInt256, _ u2: UInt256, _ q: AffinePoint<Self>) -> JacobianPoint<Self>
}

extension ShortWeierstrassCurve {
    typealias Field = Residue<FieldModulus>
    typealias Scalar = Residue<OrderModulus>

    static var generatorWindow: Int { 12 }

    static func linearCombination(_ u1: UInt256, _ u2: UInt256, _ q: AffinePoint<Self>) -> JacobianPoint<Self> {
        straussLinearCombination(u1, u2, q)
    }

    /// The odd multiples G, 3G, ... for `generatorTable`.
    static func makeGeneratorTable() -> [AffinePoint<Self>] {
        OddMultiples.affine(of: generator, count: 1 << (generatorWindow - 2))
    }
}

/// secp256k1 ("k256"): y^2 = x^3 + 7 over p = 2^256 - 2^32 - 977.
enum Secp256k1: ShortWeierstrassCurve {
    // FieldModulus: in Secp256k1Field.swift (special-form reduction).

    enum OrderModulus: MontgomeryModulus {
        static var modulus: UInt256 {
            UInt256(0xBFD2_5E8C_D036_4141, 0xBAAE_DCE6_AF48_A03B, 0xFFFF_FFFF_FFFF_FFFE, 0xFFFF_FFFF_FFFF_FFFF)
        }
        static var rSquared: UInt256 {
            UInt256(0x896C_F214_67D7_D140, 0x7414_96C2_0E7C_F878, 0xE697_F5E4_5BCD_07C6, 0x9D67_1CD5_81C6_9BC5)
        }
        static var inverseNegated: UInt64 { 0x4B0D_FF66_5588_B13F }
    }

    static var name: String { "secp256k1" }
    static var aIsZero: Bool { true }
    static let b = Field(reducing: UInt256(7, 0, 0, 0))
    static let generator = AffinePoint<Secp256k1>(
        x: Field(
            reducing: UInt256(
                0x59F2_815B_16F8_1798, 0x029B_FCDB_2DCE_28D9, 0x55A0_6295_CE87_0B07, 0x79BE_667E_F9DC_BBAC)),
        y: Field(
            reducing: UInt256(
                0x9C47_D08F_FB10_D4B8, 0xFD17_B448_A685_5419, 0x5DA4_FBFC_0E11_08A8, 0x483A_DA77_26A3_C465)))
    static let generatorTable = makeGeneratorTable()
}

/// NIST P-256 (secp256r1): y^2 = x^3 - 3x + b over p = 2^256 - 2^224 + 2^192 + 2^96 - 1.
enum P256: ShortWeierstrassCurve {
    // FieldModulus: in P256Field.swift (a reduction specialised to p's shape).

    enum OrderModulus: MontgomeryModulus {
        static var modulus: UInt256 {
            UInt256(0xF3B9_CAC2_FC63_2551, 0xBCE6_FAAD_A717_9E84, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000)
        }
        static var rSquared: UInt256 {
            UInt256(0x8324_4C95_BE79_EEA2, 0x4699_799C_49BD_6FA6, 0x2845_B239_2B6B_EC59, 0x66E1_2D94_F3D9_5620)
        }
        static var inverseNegated: UInt64 { 0xCCD1_C8AA_EE00_BC4F }
    }

    static var name: String { "P-256" }
    static var aIsZero: Bool { false }
    static let b = Field(
        reducing: UInt256(0x3BCE_3C3E_27D2_604B, 0x651D_06B0_CC53_B0F6, 0xB3EB_BD55_7698_86BC, 0x5AC6_35D8_AA3A_93E7))
    static let generator = AffinePoint<P256>(
        x: Field(
            reducing: UInt256(
                0xF4A1_3945_D898_C296, 0x7703_7D81_2DEB_33A0, 0xF8BC_E6E5_63A4_40F2, 0x6B17_D1F2_E12C_4247)),
        y: Field(
            reducing: UInt256(
                0xCBB6_4068_37BF_51F5, 0x2BCE_3357_6B31_5ECE, 0x8EE7_EB4A_7C0F_9E16, 0x4FE3_42E2_FE1A_7F9B)))
    static let generatorTable = makeGeneratorTable()
}
