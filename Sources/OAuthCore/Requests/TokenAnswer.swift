import Foundation

/// A 2xx answer of the token endpoint, usable or not, with the tokens that can be read from it either
/// way: a client that refuses the answer (wrong `sub`, wrong token type) revokes what was issued, and
/// one that cannot use it keeps the rotated refresh token rather than replaying the spent one.
/// Printing it never shows a token.
package struct TokenAnswer: Sendable, CustomStringConvertible {
    /// The checked tokens, or why the answer is not usable (``OAuthError/Code/invalidResponse``).
    package var checked: Result<OAuthTokenResponse, OAuthError>
    /// The `access_token` when the answer carries one as a non-empty string. Secret.
    package var accessToken: String?
    /// The `refresh_token` when the answer carries one as a non-empty string. Secret.
    package var refreshToken: String?
    /// The `token_type` when the answer names one.
    package var tokenType: String?

    /// Reads a 2xx answer's body.
    package init(body: Data) {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        func token(_ name: String) -> String? {
            guard let text = object?[name] as? String, !text.isEmpty else { return nil }
            return text
        }
        accessToken = token("access_token")
        refreshToken = token("refresh_token")
        tokenType = object?["token_type"] as? String
        checked = Result { () throws(OAuthError) -> OAuthTokenResponse in
            let answer: OAuthTokenResponse
            do {
                answer = try JSONDecoder().decode(OAuthTokenResponse.self, from: body)
            } catch {
                throw OAuthError(.invalidResponse, message: "the token answer is not usable JSON: \(type(of: error))")
            }
            try answer.validate()
            return answer
        }
    }

    /// The token that stands for the grant: the refresh token, else the access token.
    package var grantToken: String? { refreshToken ?? accessToken }

    /// Whether the answer names a token type other than DPoP: tokens the client must refuse, not an
    /// answer it merely cannot read.
    package var hasOtherTokenType: Bool { tokenType.map { $0.lowercased() != "dpop" } ?? false }

    /// Whether the answer was usable; never a token.
    package var description: String {
        switch checked {
        case .success(let tokens): return "TokenAnswer(\(tokens))"
        case .failure(let error): return "TokenAnswer(unusable: \(error.message))"
        }
    }
}
