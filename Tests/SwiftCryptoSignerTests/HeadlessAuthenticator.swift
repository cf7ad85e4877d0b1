#if SwiftCryptoSigner
    import AtprotoOAuth
    import Foundation
    import OAuthCore

    /// The user step without a user: reads the shared PDS's login form and posts it with a password, the
    /// way a person would press "Allow", and returns the redirect it answers with.
    struct HeadlessAuthenticator: OAuthUserAuthenticator {
        var identifier: String
        var password: String
        var action = "allow"
        /// The port put in the loopback redirect URI (the server ignores loopback ports, RFC 8252).
        var port = 54_321
        let http = URLSessionTransport.oauthDefault()

        func redirectURI(registered: String) async throws -> String {
            guard var components = URLComponents(string: registered) else { return registered }
            components.port = port
            return components.string ?? registered
        }

        func authenticate(_ url: URL, redirectURI: String) async throws -> URL {
            var page = HTTPTransportRequest(method: "GET", url: url, headers: ["Accept": "text/html"])
            page.maximumResponseSize = 64 * 1024
            let form = try await http.send(page)
            guard form.status == 200 else {
                throw OAuthError(.invalidResponse, message: "the login page answered \(form.status)")
            }
            let html = String(decoding: form.body, as: UTF8.self)
            guard let requestURI = Self.hiddenValue("request_uri", in: html),
                let clientID = Self.hiddenValue("client_id", in: html),
                let action = URL(string: "/oauth/authorize", relativeTo: url)?.absoluteURL
            else { throw OAuthError(.invalidResponse, message: "the login page has no form") }
            let post = HTTPTransportRequest.postForm(
                action,
                [
                    ("request_uri", requestURI), ("client_id", clientID), ("identifier", identifier),
                    ("password", password), ("action", self.action),
                ])
            let answer = try await http.send(post)
            guard answer.status == 302, let location = answer.header("Location"), let callback = URL(string: location)
            else {
                throw OAuthError(.invalidResponse, message: "the login form answered \(answer.status), not a redirect")
            }
            return callback
        }

        /// The `value` of the input named `name`, HTML entities decoded.
        static func hiddenValue(_ name: String, in html: String) -> String? {
            guard let start = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
            let rest = html[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end]).replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        }
    }
#endif  // SwiftCryptoSigner
