import Foundation

/// The user step of a sign-in: shows the authorization URL (a browser, a web view, a test's form
/// filler) and returns the callback URL the server redirected to.
///
/// `ASWebAuthenticationSession` on Apple platforms, ``OAuthLoopbackAuthenticator`` for command-line tools,
/// a headless one in tests.
public protocol OAuthUserAuthenticator: Sendable {
    /// The redirect URI for this sign-in, given the client's registered one. A loopback
    /// authenticator starts listening here and puts its port in; others return `registered`.
    func redirectURI(registered: String) async throws -> String

    /// Shows `url` to the user and returns the callback URL (with `code`, `state`, `iss`).
    func authenticate(_ url: URL, redirectURI: String) async throws -> URL
}

extension OAuthUserAuthenticator {
    /// The registered redirect URI, unchanged.
    public func redirectURI(registered: String) async throws -> String { registered }
}
