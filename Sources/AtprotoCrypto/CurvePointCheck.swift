/// Checks SEC1 points: that they are on their curve, and both forms of each.
enum CurvePointCheck {
    /// The compressed and uncompressed forms of a SEC1 point (33 or 65 bytes) checked to be on `curve`.
    ///
    /// - Throws: ``AtprotoPublicKeyError`` `.malformedPoint` for a wrong length or prefix, `.notOnCurve` for
    ///   a coordinate not below the field prime, a compressed x that no point has, or an uncompressed
    ///   (x, y) that does not satisfy the curve equation.
    static func checkedPoint(
        _ bytes: [UInt8], on curve: AtprotoKeyCurve
    ) throws(AtprotoPublicKeyError) -> (compressed: [UInt8], uncompressed: [UInt8]) {
        switch curve {
        case .secp256k1:
            let point = try AffinePoint<Secp256k1>(sec1: bytes)
            return (point.compressedBytes, point.uncompressedBytes)
        case .p256:
            let point = try AffinePoint<P256>(sec1: bytes)
            return (point.compressedBytes, point.uncompressedBytes)
        }
    }
}
