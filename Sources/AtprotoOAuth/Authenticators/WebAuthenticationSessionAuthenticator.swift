#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    import Foundation
    import OAuthCore

    /// The user step with `ASWebAuthenticationSession`: the system's sign-in sheet over the app's
    /// window, its cookies shared with Safari unless ``prefersEphemeralWebBrowserSession`` is set.
    ///
    /// ```swift
    /// let authenticator = WebAuthenticationSessionAuthenticator(anchor: view.window!)
    /// let session = try await client.signIn(.account("alice.example.com"), with: authenticator)
    /// ```
    ///
    /// The redirect URI's scheme (`com.example.app` in `com.example.app:/oauth/callback`) is the
    /// callback scheme. Cancelling the calling task closes the sheet.
    @MainActor
    public final class WebAuthenticationSessionAuthenticator: NSObject, OAuthUserAuthenticator,
        ASWebAuthenticationPresentationContextProviding
    {
        /// The window the sheet is shown over (read by the system on the main thread only).
        public nonisolated(unsafe) let anchor: ASPresentationAnchor
        /// Whether the sheet keeps no cookies (no single sign-on with Safari).
        public let prefersEphemeralWebBrowserSession: Bool
        private var running: ASWebAuthenticationSession?

        /// Creates an authenticator that presents over `anchor`.
        public init(anchor: ASPresentationAnchor, prefersEphemeralWebBrowserSession: Bool = false) {
            self.anchor = anchor
            self.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
        }

        /// Shows `url` in the sheet and returns the callback URL.
        ///
        /// - Throws: `OAuthError` of kind `cancelled` when the user closes the sheet or the task is
        ///   cancelled; `invalidRequest` when the redirect URI has no scheme.
        public func authenticate(_ url: URL, redirectURI: String) async throws -> URL {
            guard let scheme = URLComponents(string: redirectURI)?.scheme, !scheme.isEmpty else {
                throw OAuthError(.invalidRequest, message: "the redirect URI \(redirectURI) has no scheme")
            }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                    let session = ASWebAuthenticationSession(url: url, callbackURLScheme: scheme) {
                        callback, error in
                        if let callback {
                            continuation.resume(returning: callback)
                        } else {
                            let reason = error?.localizedDescription ?? "no callback"
                            continuation.resume(
                                throwing: OAuthError(.cancelled, message: "the sign-in sheet closed: \(reason)"))
                        }
                    }
                    session.presentationContextProvider = self
                    session.prefersEphemeralWebBrowserSession = prefersEphemeralWebBrowserSession
                    running = session
                    if !session.start() {
                        running = nil
                        continuation.resume(
                            throwing: OAuthError(.cancelled, message: "the sign-in sheet could not start"))
                    }
                }
            } onCancel: {
                Task { @MainActor in self.running?.cancel() }
            }
        }

        /// The window the sheet is shown over.
        public nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
            anchor
        }
    }
#endif
