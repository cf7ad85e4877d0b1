import Foundation
@_spi(Plumbing) import OAuthCore

/// Who the app is to the authorization server: its client id, redirect URI, scopes, and how it
/// authenticates.
///
/// - ``publicClient(metadataURL:redirectURI:scopes:)``: a client metadata document at an https URL.
/// - ``development(redirectURI:scopes:)``: the `http://localhost` client of the atproto spec, for
///   command-line tools and development (loopback redirects, short-lived sessions).
/// - ``confidential(metadataURL:redirectURI:scopes:assertion:)``: `private_key_jwt`, the assertion
///   made by the app's backend (or here, with `ClientAuthentication.privateKeyJWT(clientID:signer:keyID:)`).
public struct OAuthClientConfiguration: Sendable {
    /// The client id: the metadata document's URL, or the `http://localhost?...` development id.
    public var clientID: String
    /// The registered redirect URI (a loopback authenticator puts its port in).
    public var redirectURI: String
    /// The scopes asked for (`atproto` is always added).
    public var scopes: [OAuthScope]
    /// How the client authenticates at the server.
    public var authentication: ClientAuthentication

    /// Creates a configuration from its parts.
    public init(clientID: String, redirectURI: String, scopes: [OAuthScope], authentication: ClientAuthentication) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.authentication = authentication
    }

    /// A public client whose metadata document is at `metadataURL` (https, or http on loopback).
    public static func publicClient(metadataURL: URL, redirectURI: String, scopes: [OAuthScope] = [.transitionGeneric])
        throws(OAuthError) -> OAuthClientConfiguration
    {
        _ = try SecureURL.require(metadataURL, "the client metadata URL")
        return OAuthClientConfiguration(
            clientID: metadataURL.absoluteString, redirectURI: redirectURI, scopes: scopes, authentication: .none)
    }

    /// The development client `http://localhost?redirect_uri=...&scope=...`; `redirectURI` must be
    /// `http://127.0.0.1/...` or `http://[::1]/...` (its port is chosen per sign-in).
    public static func development(
        redirectURI: String = "http://127.0.0.1/callback", scopes: [OAuthScope] = [.transitionGeneric]
    ) -> OAuthClientConfiguration {
        let scope = OAuthScope.parameter(scopes)
        let query = String(
            decoding: FormEncoding.encode([("redirect_uri", redirectURI), ("scope", scope)]), as: UTF8.self)
        return OAuthClientConfiguration(
            clientID: "http://localhost?" + query, redirectURI: redirectURI, scopes: scopes, authentication: .none)
    }

    /// A confidential client (`private_key_jwt`); `assertion` makes a fresh client assertion for an
    /// issuer (typically by asking the app's backend, which holds the key).
    public static func confidential(
        metadataURL: URL, redirectURI: String, scopes: [OAuthScope] = [.transitionGeneric],
        assertion: @escaping ClientAuthentication.AssertionProvider
    ) throws(OAuthError) -> OAuthClientConfiguration {
        _ = try SecureURL.require(metadataURL, "the client metadata URL")
        return OAuthClientConfiguration(
            clientID: metadataURL.absoluteString, redirectURI: redirectURI, scopes: scopes,
            authentication: .privateKeyJWT(assertion))
    }
}
