import SHA2

extension AtprotoPublicKey {
    /// Whether `signature` is a valid atproto signature of `message` by this key.
    ///
    /// The message is hashed with SHA-256 and checked with ECDSA on the key's curve, by atproto's
    /// rules: the signature is 64 bytes, r then s (DER is refused), both in 1...n-1, and s is in the
    /// lower half (s <= n/2; a high-S signature is refused rather than normalised, so signatures
    /// cannot be altered into another valid one).
    public func isValidSignature(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>) -> Bool {
        isValidSignature(signature, forDigest: SHA256.hash(Array(message)))
    }

    /// Whether `signature` is a valid atproto signature for a SHA-256 `digest` (32 bytes; any other
    /// length is invalid) computed by the caller, by the same rules as ``isValidSignature(_:for:)``.
    public func isValidSignature(_ signature: some Collection<UInt8>, forDigest digest: some Collection<UInt8>) -> Bool
    {
        // Compact r || s only: DER (70 to 72 bytes) and anything else fails here.
        let signature = Array(signature)
        guard signature.count == 64, let e = UInt256(bigEndian: Array(digest)),
            let r = UInt256(bigEndian: signature[0..<32]),
            let s = UInt256(bigEndian: signature[32..<64])
        else { return false }
        return isValidSignature(r: r, s: s, digest: e)
    }

    /// The verification proper, on integers (not generic over collections, so that the curve
    /// arithmetic below is compiled for each concrete curve).
    private func isValidSignature(r: UInt256, s: UInt256, digest: UInt256) -> Bool {
        switch curve {
        case .secp256k1:
            guard let key = point(on: Secp256k1.self) else { return false }
            return ECDSAVerification.isValid(r: r, s: s, digest: digest, key: key)
        case .p256:
            guard let key = point(on: P256.self) else { return false }
            return ECDSAVerification.isValid(r: r, s: s, digest: digest, key: key)
        }
    }

    /// The point as curve arithmetic sees it (from ``uncompressedBytes``, checked at creation).
    func point<Curve>(on _: Curve.Type) -> AffinePoint<Curve>? {
        guard uncompressedBytes.count == 65, let x = UInt256(bigEndian: uncompressedBytes[1...32]),
            let y = UInt256(bigEndian: uncompressedBytes[33...]), let xField = Curve.Field(x),
            let yField = Curve.Field(y)
        else { return nil }
        return AffinePoint(x: xField, y: yField)
    }
}
