/// A point (x, y) of `Curve` other than the point at infinity, in affine coordinates.
struct AffinePoint<Curve: ShortWeierstrassCurve>: Sendable, Equatable {
    var x: Curve.Field
    var y: Curve.Field

    /// x^3 + ax + b: what y^2 must be for a point with this x.
    static func rightHandSide(_ x: Curve.Field) -> Curve.Field {
        let cube = x.squared() * x
        if Curve.aIsZero {
            return cube + Curve.b
        }
        return cube - (x.doubled() + x) + Curve.b
    }

    /// Whether y^2 = x^3 + ax + b.
    var isOnCurve: Bool { y.squared() == Self.rightHandSide(x) }

    /// The point -P = (x, -y).
    var negated: AffinePoint { AffinePoint(x: x, y: -y) }

    /// The point with this x whose y has the given parity, or nil when x^3 + ax + b has no square
    /// root (no point of the curve has this x).
    init?(x: Curve.Field, yIsOdd: Bool) {
        guard let root = Self.rightHandSide(x).squareRoot() else { return nil }
        self.x = x
        self.y = root.value.isOdd == yIsOdd ? root : -root
    }

    /// Creates a point from coordinates already known to be on the curve.
    init(x: Curve.Field, y: Curve.Field) {
        self.x = x
        self.y = y
    }

    /// Reads a SEC1 point: compressed (33 bytes, `02`/`03` + x) or uncompressed (65 bytes,
    /// `04` + x + y), and checks that it is on the curve.
    ///
    /// - Throws: ``AtprotoPublicKeyError`` `.malformedPoint` for a wrong length or prefix, `.notOnCurve`
    ///   for a coordinate not below p, a compressed x with no point, or an (x, y) off the curve.
    init(sec1 bytes: [UInt8]) throws(AtprotoPublicKeyError) {
        switch (bytes.count, bytes.first) {
        case (33, 0x02?), (33, 0x03?):
            let x = try Self.coordinate(bytes[1...32], "x")
            guard let point = AffinePoint(x: x, yIsOdd: bytes[0] == 0x03) else {
                throw AtprotoPublicKeyError(
                    .notOnCurve, message: "no \(Curve.name) point has this x: x^3 + ax + b is not a square modulo p")
            }
            self = point
        case (65, 0x04?):
            let point = AffinePoint(
                x: try Self.coordinate(bytes[1...32], "x"), y: try Self.coordinate(bytes[33...], "y"))
            guard point.isOnCurve else {
                throw AtprotoPublicKeyError(
                    .notOnCurve, message: "(x, y) is not on \(Curve.name): y^2 != x^3 + ax + b modulo p")
            }
            self = point
        default:
            throw AtprotoPublicKeyError(
                .malformedPoint,
                message: "a \(Curve.name) point is 33 bytes (02/03 + x) or 65 bytes (04 + x + y), not \(bytes.count)")
        }
    }

    /// A coordinate from 32 big-endian bytes, which must be below p.
    private static func coordinate(_ bytes: ArraySlice<UInt8>, _ name: String) throws(AtprotoPublicKeyError)
        -> Curve.Field
    {
        guard let value = UInt256(bigEndian: bytes), let element = Curve.Field(value) else {
            throw AtprotoPublicKeyError(.notOnCurve, message: "\(name) is not below the \(Curve.name) field prime p")
        }
        return element
    }

    /// The SEC1 compressed form: `02` (y even) or `03` (y odd), then x.
    var compressedBytes: [UInt8] {
        [y.value.isOdd ? 0x03 : 0x02] + x.value.bigEndianBytes
    }

    /// The SEC1 uncompressed form: `04`, x, y.
    var uncompressedBytes: [UInt8] {
        [0x04] + x.value.bigEndianBytes + y.value.bigEndianBytes
    }
}
