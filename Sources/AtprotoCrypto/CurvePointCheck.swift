/// Checks SEC1 points and turns them into compressed form.
///
/// TODO(crypto): the on-curve check belongs to the curve arithmetic; until it lands, only the
/// length and prefix are checked here.
enum CurvePointCheck {
    static func compressedPoint(_ bytes: [UInt8], on curve: KeyCurve) throws(PublicKeyError) -> [UInt8] {
        switch (bytes.count, bytes.first) {
        case (33, 0x02?), (33, 0x03?):
            return bytes
        case (65, 0x04?):
            let yIsOdd = bytes[64] & 1 == 1
            return [yIsOdd ? 0x03 : 0x02] + bytes[1...32]
        default:
            throw PublicKeyError(
                .malformedPoint, "a \(curve.rawValue) point is 33 bytes (02/03 + x) or 65 bytes (04 + x + y), not \(bytes.count)")
        }
    }
}
