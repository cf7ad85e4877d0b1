// This file is also compiled on Linux against swift-crypto (the same API), by the CryptoKitSignerTwin
// target under the SwiftCryptoSigner trait, so that CI type-checks and tests it; the Secure Enclave
// has no twin and stays Apple-only.
#if CRYPTOKIT_TWIN
    #if SwiftCryptoSigner
        import Crypto
        import OAuthCore
    #endif
#elseif canImport(CryptoKit)
    import CryptoKit
#endif

#if (CRYPTOKIT_TWIN && SwiftCryptoSigner) || (!CRYPTOKIT_TWIN && canImport(CryptoKit))
    import Foundation

    /// An ``ES256Signer`` over CryptoKit: a software P-256 key, or a Secure Enclave key when the app
    /// asks for one (``CryptoKitES256KeyFactory/init(secureEnclave:)``).
    public struct CryptoKitES256Signer: ES256Signer {
        private enum Key {
            case software(P256.Signing.PrivateKey)
            #if canImport(CryptoKit)
                case enclave(SecureEnclave.P256.Signing.PrivateKey)
            #endif
        }

        // @unchecked Sendable: a `let` key, never changed; signing only reads it (older SDKs: keys not Sendable).
        /// The key, never changed after creation (older SDKs do not mark CryptoKit keys `Sendable`).
        private final class KeyBox: @unchecked Sendable {
            let key: Key
            init(_ key: Key) { self.key = key }
        }

        private let box: KeyBox
        private var key: Key { box.key }
        /// The public key.
        public let publicJWK: ECPublicJWK

        /// Wraps a software key.
        public init(_ key: P256.Signing.PrivateKey) throws {
            self.box = KeyBox(.software(key))
            self.publicJWK = try ECPublicJWK(uncompressed: key.publicKey.x963Representation)
        }

        #if canImport(CryptoKit)
            /// Wraps a Secure Enclave key.
            public init(enclave key: SecureEnclave.P256.Signing.PrivateKey) throws {
                self.box = KeyBox(.enclave(key))
                self.publicJWK = try ECPublicJWK(uncompressed: key.publicKey.x963Representation)
            }
        #endif

        /// `r || s` over SHA-256(`message`), by CryptoKit.
        public func sign(_ message: [UInt8]) async throws -> [UInt8] {
            switch key {
            case .software(let key): return Array(try key.signature(for: message).rawRepresentation)
            #if canImport(CryptoKit)
                case .enclave(let key): return Array(try key.signature(for: message).rawRepresentation)
            #endif
            }
        }

        /// The raw scalar, or the enclave's device-bound blob.
        public func exportForArchive() throws -> OAuthSigningKeyArchive {
            switch key {
            case .software(let key):
                return OAuthSigningKeyArchive(kind: OAuthSigningKeyArchive.p256Raw, data: key.rawRepresentation)
            #if canImport(CryptoKit)
                case .enclave(let key):
                    return OAuthSigningKeyArchive(
                        kind: OAuthSigningKeyArchive.secureEnclave, data: key.dataRepresentation)
            #endif
            }
        }
    }

    /// Makes CryptoKit keys: software P-256 by default, Secure Enclave keys when asked and available.
    public struct CryptoKitES256KeyFactory: ES256KeyFactory {
        /// Whether new keys are made in the Secure Enclave.
        public var secureEnclave: Bool

        /// Creates a factory; with `secureEnclave`, new keys live in the enclave (and cannot leave
        /// the device: a restored archive works there only).
        public init(secureEnclave: Bool = false) {
            self.secureEnclave = secureEnclave
        }

        /// A new key.
        public func makeKey() async throws -> any ES256Signer {
            #if canImport(CryptoKit)
                if secureEnclave, SecureEnclave.isAvailable {
                    return try CryptoKitES256Signer(enclave: SecureEnclave.P256.Signing.PrivateKey())
                }
            #endif
            return try CryptoKitES256Signer(P256.Signing.PrivateKey())
        }

        /// The key of `archive`.
        public func restoreKey(from archive: OAuthSigningKeyArchive) async throws -> any ES256Signer {
            switch archive.kind {
            case OAuthSigningKeyArchive.p256Raw:
                return try CryptoKitES256Signer(P256.Signing.PrivateKey(rawRepresentation: archive.data))
            #if canImport(CryptoKit)
                case OAuthSigningKeyArchive.secureEnclave:
                    return try CryptoKitES256Signer(
                        enclave: SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: archive.data))
            #endif
            default:
                throw OAuthError(
                    .invalidRequest, message: "a key archive of kind \(archive.kind) is not a CryptoKit key")
            }
        }
    }
#endif
