import Foundation

/// An ES256 (ECDSA P-256 with SHA-256) private key that signs DPoP proofs and client assertions.
///
/// Signing is never done by this package's own code: implementations wrap CryptoKit
/// (`CryptoKitES256Signer` on Apple platforms), swift-crypto (the `SwiftCryptoSigner` product,
/// behind the package trait of the same name), a Secure Enclave, or an app's key store.
public protocol ES256Signer: Sendable {
    /// The public key, for the JWS header's `jwk` and the thumbprint tokens are bound to.
    var publicJWK: ECPublicJWK { get }

    /// The signature of `message` (hashed with SHA-256 by the signer): 64 bytes, `r || s`.
    func sign(_ message: [UInt8]) async throws -> [UInt8]

    /// The private key for a session archive, so a restored session keeps its DPoP binding. The only
    /// way a private key leaves its signer.
    ///
    /// - Throws: when the key cannot leave its store.
    func exportForArchive() throws -> OAuthSigningKeyArchive
}

/// Makes the fresh key of each OAuth session and restores keys from archives.
public protocol ES256KeyFactory: Sendable {
    /// A new key pair.
    func makeKey() async throws -> any ES256Signer

    /// The key stored in `archive`.
    ///
    /// - Throws: when the archive is not one of this factory's kinds or is damaged.
    func restoreKey(from archive: OAuthSigningKeyArchive) async throws -> any ES256Signer
}

/// A private key as a session archive stores it: a kind (`p256-raw`: the 32-byte scalar;
/// `secure-enclave`: the enclave's wrapped blob, usable on that device only) and its bytes.
///
/// Printing or dumping it never shows the bytes.
public struct OAuthSigningKeyArchive: Sendable, Hashable, Codable, CustomStringConvertible,
    CustomDebugStringConvertible,
    CustomReflectable
{
    /// The kind of key; the factory that made it knows how to read it.
    public var kind: String
    /// The key's bytes. Secret.
    public var data: Data

    /// The raw P-256 private scalar kind.
    public static let p256Raw = "p256-raw"
    /// A Secure Enclave key's `dataRepresentation`.
    public static let secureEnclave = "secure-enclave"

    /// Creates an archive.
    public init(kind: String, data: Data) {
        self.kind = kind
        self.data = data
    }

    /// The kind only.
    public var description: String { "OAuthSigningKeyArchive(\(kind), <redacted>)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with the kind only.
    public var customMirror: Mirror { Mirror(self, children: ["kind": kind], displayStyle: .struct) }
}
