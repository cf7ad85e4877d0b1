import AtprotoSyntax
import Foundation
@_spi(Plumbing) import OAuthCore

/// A sign-in between the pushed request and the callback: the URL for the user step and what the
/// callback is checked against. `Codable`, so an app that is suspended during the user step can keep
/// it; printing or dumping it never shows the state, the verifier or the key.
public struct OAuthPendingAuthorization: Sendable, Hashable, Codable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// Where the user signs in.
    public var authorizationURL: URL
    /// The `state` the callback must carry.
    public var state: String
    /// The PKCE pair; the verifier goes in the code exchange.
    public var pkce: PKCE
    /// The session's fresh DPoP key.
    public var dpopKey: OAuthSigningKeyArchive
    /// The issuer the callback's `iss` must equal.
    public var issuer: String
    /// Its checked metadata.
    public var authorizationServer: AuthorizationServerMetadata
    /// The redirect URI sent (the code exchange repeats it).
    public var redirectURI: String
    /// The account asked for, when the flow started from a handle or DID: the token's `sub` must be it.
    public var expectedDID: DID?
    /// The `login_hint` sent.
    public var loginHint: String?
    /// The scopes asked for.
    public var scope: String
    /// The DPoP nonces seen so far.
    public var nonces: [String: String]
    /// When the request was pushed.
    public var createdAt: Date

    /// The issuer and account only.
    public var description: String {
        "OAuthPendingAuthorization(issuer: \(issuer), account: \(expectedDID?.rawValue ?? loginHint ?? "any"))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the state, the PKCE verifier, the key or the nonces.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "authorizationURL": authorizationURL, "issuer": issuer, "redirectURI": redirectURI,
                "expectedDID": expectedDID as Any, "loginHint": loginHint as Any, "scope": scope,
                "createdAt": createdAt,
            ], displayStyle: .struct)
    }
}

/// What a sign-in starts from.
public enum OAuthSignInStart: Sendable, Hashable {
    /// A handle or DID: its PDS and authorization server are resolved, and the account is checked.
    case account(String)
    /// A PDS or entryway URL, when the user gave no handle.
    case server(URL)
}

/// The parameters of an authorization callback.
struct CallbackParameters {
    var code: String?
    var state: String?
    var issuer: String?
    var error: String?
    var errorDescription: String?

    init(_ callback: URL) {
        let components = URLComponents(url: callback, resolvingAgainstBaseURL: false)
        var fields = FormEncoding.decode(components?.percentEncodedQuery ?? "")
        if fields.isEmpty { fields = FormEncoding.decode(components?.percentEncodedFragment ?? "") }
        func first(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }
        code = first("code")
        state = first("state")
        issuer = first("iss")
        error = first("error")
        errorDescription = first("error_description")
    }
}
