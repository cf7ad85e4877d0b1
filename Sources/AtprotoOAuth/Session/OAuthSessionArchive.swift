import AtprotoSyntax
import Foundation
import OAuthCore
import XRPCAgents

/// Everything needed to resume an OAuth session in a new process: the account, the issuer it is
/// bound to, the tokens, the DPoP key, and the nonces worth keeping.
///
/// Store it (Keychain, or a file the app protects) each time ``OAuthSession/updates()`` yields one,
/// and pass it to ``AtprotoOAuthClient/restore(_:)``. Printing or dumping it never shows a token or
/// the key.
public struct OAuthSessionArchive: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The archive format; 1.
    public var version: Int
    /// The account's DID (the token's `sub`).
    public var did: DID
    /// The handle, when it verified.
    public var handle: ATHandle?
    /// The account's PDS: calls go there.
    public var pdsEndpoint: URL
    /// The authorization server's issuer the session is bound to.
    public var issuer: String
    /// The authorization server's metadata, as checked at sign-in.
    public var authorizationServer: AuthorizationServerMetadata
    /// The client id the tokens were issued to.
    public var clientID: String
    /// The granted scopes, space-separated.
    public var scope: String
    /// The access token.
    public var accessToken: XRPCSessionToken
    /// The refresh token, when the server issued one.
    public var refreshToken: XRPCSessionToken?
    /// When the access token was issued.
    public var issuedAt: Date
    /// When the access token expires.
    public var expiresAt: Date
    /// The DPoP private key the tokens are bound to.
    public var dpopKey: OAuthSigningKeyArchive
    /// The last DPoP nonce of each origin (authorization server, PDS).
    public var nonces: [String: String]

    /// Creates an archive.
    public init(
        did: DID, handle: ATHandle?, pdsEndpoint: URL, issuer: String, authorizationServer: AuthorizationServerMetadata,
        clientID: String, scope: String, accessToken: XRPCSessionToken, refreshToken: XRPCSessionToken?, issuedAt: Date,
        expiresAt: Date, dpopKey: OAuthSigningKeyArchive, nonces: [String: String]
    ) {
        self.version = 1
        self.did = did
        self.handle = handle
        self.pdsEndpoint = pdsEndpoint
        self.issuer = issuer
        self.authorizationServer = authorizationServer
        self.clientID = clientID
        self.scope = scope
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.dpopKey = dpopKey
        self.nonces = nonces
    }

    /// The scopes.
    public var scopes: [OAuthScope] { OAuthScope.parse(scope) }

    /// The account, PDS, issuer and expiry; never the tokens or the key.
    public var description: String {
        "\(did.rawValue) (\(handle?.rawValue ?? "no verified handle")) on \(pdsEndpoint.absoluteString), "
            + "issuer \(issuer), expires \(expiresAt)"
    }
    /// The same as ``description``, with the type name.
    public var debugDescription: String { "OAuthSessionArchive(\(description), tokens and key: <redacted>)" }
    /// A mirror without the tokens and the key.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "did": did, "handle": handle as Any, "pdsEndpoint": pdsEndpoint, "issuer": issuer, "scope": scope,
                "expiresAt": expiresAt,
            ], displayStyle: .struct)
    }
}
