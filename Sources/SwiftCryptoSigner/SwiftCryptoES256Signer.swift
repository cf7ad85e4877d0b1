#if SwiftCryptoSigner
    import Crypto
    import Foundation
    import OAuthCore

    /// An `ES256Signer` over swift-crypto's `P256.Signing.PrivateKey` (BoringSSL on Linux,
    /// CryptoKit on Apple platforms): the same API as OAuthCore's CryptoKit signer.
    public struct SwiftCryptoES256Signer: ES256Signer {
        // @unchecked Sendable: a `let` key, never changed; signing only reads it (swift-crypto 3: keys not Sendable).
        /// The key, never changed after creation. swift-crypto 3 does not mark its keys `Sendable`; an
        /// immutable value whose signing reads it only is safe to share.
        private final class KeyBox: @unchecked Sendable {
            let key: P256.Signing.PrivateKey
            init(_ key: P256.Signing.PrivateKey) { self.key = key }
        }

        private let box: KeyBox
        /// The public key.
        public let publicJWK: ECPublicJWK

        /// Wraps `key`.
        public init(_ key: P256.Signing.PrivateKey) throws {
            self.box = KeyBox(key)
            self.publicJWK = try ECPublicJWK(uncompressed: key.publicKey.x963Representation)
        }

        /// `r || s` over SHA-256(`message`), by swift-crypto.
        public func sign(_ message: [UInt8]) async throws -> [UInt8] {
            Array(try box.key.signature(for: message).rawRepresentation)
        }

        /// The raw 32-byte private scalar, for the session archive.
        public func exportForArchive() throws -> OAuthSigningKeyArchive {
            OAuthSigningKeyArchive(kind: OAuthSigningKeyArchive.p256Raw, data: box.key.rawRepresentation)
        }
    }

    /// Makes swift-crypto P-256 keys and restores them from archives.
    public struct SwiftCryptoES256KeyFactory: ES256KeyFactory {
        /// Creates a factory.
        public init() {}

        /// A new key.
        public func makeKey() async throws -> any ES256Signer {
            try SwiftCryptoES256Signer(P256.Signing.PrivateKey())
        }

        /// The key of a `p256-raw` archive.
        public func restoreKey(from archive: OAuthSigningKeyArchive) async throws -> any ES256Signer {
            guard archive.kind == OAuthSigningKeyArchive.p256Raw else {
                throw OAuthError(
                    .invalidRequest, message: "a key archive of kind \(archive.kind) is not a swift-crypto P-256 key")
            }
            return try SwiftCryptoES256Signer(P256.Signing.PrivateKey(rawRepresentation: archive.data))
        }
    }
#endif  // SwiftCryptoSigner
