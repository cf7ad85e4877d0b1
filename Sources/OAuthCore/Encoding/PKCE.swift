import AtprotoSyntax
import Foundation
import SHA2

/// A PKCE pair (RFC 7636) with the `S256` method: the verifier stays with the client, the challenge
/// goes in the authorization request.
///
/// Its description, debug description and mirror (`dump`) never show the verifier.
public struct PKCE: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The code verifier: 43 to 128 characters of `A-Z a-z 0-9 - . _ ~`. Secret until the code
    /// exchange.
    public let verifier: String

    /// The method, always `S256`.
    public static let method = "S256"

    /// A fresh pair: a 32-byte random verifier (43 base64url characters).
    public init() {
        verifier = SecureRandom.token(byteCount: 32)
    }

    /// A pair from a known verifier (a stored pending authorization, a test vector).
    ///
    /// - Throws: ``OAuthError/Code/invalidRequest`` when the verifier breaks RFC 7636's syntax.
    public init(verifier: String) throws(OAuthError) {
        guard (43...128).contains(verifier.utf8.count), verifier.utf8.allSatisfy(\.isUnreservedURICharacter) else {
            throw OAuthError(.invalidRequest, message: "a PKCE verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
        }
        self.verifier = verifier
    }

    /// Reads a stored verifier, checking its syntax.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(verifier: text)
    }

    /// Writes the verifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(verifier)
    }

    /// The challenge: base64url(SHA-256(ASCII(verifier))).
    public var challenge: String { Base64URL.encode(SHA256.hash(Array(verifier.utf8))) }

    /// `PKCE(S256, verifier: <redacted>)`.
    public var description: String { "PKCE(S256, verifier: <redacted>)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with the method only.
    public var customMirror: Mirror { Mirror(self, children: ["method": Self.method], displayStyle: .struct) }

}
