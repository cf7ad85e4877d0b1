import AtprotoCrypto
import Foundation
import FuzzDriver
@_spi(Plumbing) import OAuthCore

/// OAuth answers: server and resource metadata, token and error answers, WWW-Authenticate, JWS.
let oauthTargets: [FuzzTarget] = [
    FuzzTarget("oauth-metadata", "authorization server and protected resource metadata: decoded and checked") {
        bytes in
        let data = Data(bytes)
        let issuer = "https://auth.example.com"
        if let metadata = try? JSONDecoder().decode(AuthorizationServerMetadata.self, from: data) {
            _ = try? metadata.validate(fetchedFor: issuer)
            _ = try? metadata.validateAtprotoProfile(fetchedFor: issuer)
        }
        if let metadata = try? JSONDecoder().decode(ProtectedResourceMetadata.self, from: data) {
            _ = try? metadata.validate(fetchedFor: "https://pds.example.com")
        }
    },
    FuzzTarget("oauth-token", "token and error answers: OAuthTokenResponse, OAuthError.fromResponse, WWW-Authenticate")
    {
        bytes in
        var input = FuzzInput(bytes)
        let header = String(decoding: input.take(Int(input.byte())), as: UTF8.self)
        let body = Data(input.rest())
        if let token = try? JSONDecoder().decode(OAuthTokenResponse.self, from: body) {
            _ = try? token.validate()
            _ = token.description
        }
        let response = HTTPTransportResponse(status: 400, headers: ["WWW-Authenticate": header], body: body)
        _ = OAuthError.fromResponse(response, "token request").description
        _ = WWWAuthenticateChallenge.parse(header)
        _ = WWWAuthenticateChallenge.dpopError(in: header)
        _ = FormEncoding.decode(String(decoding: body, as: UTF8.self))
        _ = DPoPNonceStore().update(from: URL(fileURLWithPath: "/"), headerValue: header)
    },
    FuzzTarget("jws", "a compact JWS: split, header decoded, its JWK read and the ES256 signature checked") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        guard let (header, claims, signature) = CompactJWS.split(text),
            let decoded = try? JSONDecoder().decode(JWSHeader.self, from: Data(header))
        else { return }
        _ = try? JSONSerialization.jsonObject(with: Data(claims))
        guard let jwk = decoded.jwk, let x = Base64URL.decode(jwk.x), let y = Base64URL.decode(jwk.y),
            let key = try? AtprotoPublicKey(sec1: [4] + x + y, curve: .p256),
            let signingInput = text.split(separator: ".").prefix(2).joined(separator: ".").data(using: .utf8)
        else { return }
        _ = key.isValidSignature(signature, for: signingInput)
        _ = try? ECPublicJWK(x: x, y: y)
    },
]
