import Foundation
import HTTPTransport

/// Authorization server metadata (RFC 8414), with the fields the atproto profile uses.
public struct AuthorizationServerMetadata: Sendable, Hashable, Codable {
    /// The issuer: the URL the document was fetched for.
    public var issuer: String
    /// Where the user signs in.
    public var authorizationEndpoint: String
    /// Where codes and refresh tokens become tokens.
    public var tokenEndpoint: String
    /// Where pushed authorization requests go (RFC 9126).
    public var pushedAuthorizationRequestEndpoint: String?
    /// Whether every authorization request must be pushed.
    public var requirePushedAuthorizationRequests: Bool?
    /// Where tokens are revoked (RFC 7009).
    public var revocationEndpoint: String?
    /// `code` at least.
    public var responseTypesSupported: [String]?
    /// `authorization_code`, `refresh_token`.
    public var grantTypesSupported: [String]?
    /// `S256`.
    public var codeChallengeMethodsSupported: [String]?
    /// `none`, `private_key_jwt`.
    public var tokenEndpointAuthMethodsSupported: [String]?
    /// `ES256` for client assertions.
    public var tokenEndpointAuthSigningAlgValuesSupported: [String]?
    /// `ES256` for DPoP proofs.
    public var dpopSigningAlgValuesSupported: [String]?
    /// Scopes the server knows.
    public var scopesSupported: [String]?
    /// Whether the callback carries `iss` (RFC 9207).
    public var authorizationResponseIssParameterSupported: Bool?
    /// Whether client ids may be metadata document URLs.
    public var clientIdMetadataDocumentSupported: Bool?

    private enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case revocationEndpoint = "revocation_endpoint"
        case responseTypesSupported = "response_types_supported"
        case grantTypesSupported = "grant_types_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case tokenEndpointAuthSigningAlgValuesSupported = "token_endpoint_auth_signing_alg_values_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case scopesSupported = "scopes_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case clientIdMetadataDocumentSupported = "client_id_metadata_document_supported"
    }

    /// The RFC 8414 checks: the issuer is exactly `issuer` (the URL the document was fetched for),
    /// https (loopback http allowed) without query or fragment, and the endpoints are usable URLs.
    public func validate(fetchedFor issuer: String) throws(OAuthError) {
        guard self.issuer == issuer else {
            throw OAuthError(
                .invalidMetadata, message: "the metadata of \(issuer) names another issuer, \(self.issuer.prefix(200))")
        }
        guard let issuerURL = URL(string: issuer), SecureURL.isAllowed(issuerURL), issuerURL.query == nil,
            issuerURL.fragment == nil
        else {
            throw OAuthError(
                .invalidMetadata, message: "the issuer \(issuer) is not an https URL without query or fragment")
        }
        _ = try endpoint(authorizationEndpoint, "authorization_endpoint")
        _ = try endpoint(tokenEndpoint, "token_endpoint")
        if let revocationEndpoint { _ = try endpoint(revocationEndpoint, "revocation_endpoint") }
        if let responseTypesSupported, !responseTypesSupported.contains("code") {
            throw OAuthError(.invalidMetadata, message: "\(issuer) does not support response_type code")
        }
    }

    /// The checks of the atproto profile on top of ``validate(fetchedFor:)``: PAR required and
    /// offered, PKCE S256, DPoP with ES256, `iss` in callbacks, client metadata documents, both grants,
    /// and the `atproto` scope.
    public func validateAtprotoProfile(fetchedFor issuer: String) throws(OAuthError) {
        try validate(fetchedFor: issuer)
        func require(_ condition: Bool, _ what: String) throws(OAuthError) {
            guard condition else {
                throw OAuthError(.invalidMetadata, message: "\(issuer) breaks the atproto profile: \(what)")
            }
        }
        try require(requirePushedAuthorizationRequests == true, "require_pushed_authorization_requests is not true")
        try require(pushedAuthorizationRequestEndpoint != nil, "no pushed_authorization_request_endpoint")
        if let pushedAuthorizationRequestEndpoint {
            _ = try endpoint(pushedAuthorizationRequestEndpoint, "PAR endpoint")
        }
        try require(dpopSigningAlgValuesSupported?.contains("ES256") == true, "DPoP with ES256 is not offered")
        try require(authorizationResponseIssParameterSupported == true, "callbacks do not carry iss")
        try require(clientIdMetadataDocumentSupported == true, "client metadata documents are not supported")
        try require(codeChallengeMethodsSupported?.contains("S256") == true, "PKCE S256 is not offered")
        try require(
            grantTypesSupported.map { $0.contains("authorization_code") && $0.contains("refresh_token") } ?? true,
            "grant_types_supported lacks authorization_code or refresh_token")
        try require(scopesSupported?.contains("atproto") == true, "the atproto scope is not offered")
    }

    /// A usable endpoint URL, or ``OAuthError/Code/invalidMetadata``.
    public func endpoint(_ text: String, _ name: String) throws(OAuthError) -> URL {
        guard let url = URL(string: text), SecureURL.isAllowed(url), url.fragment == nil else {
            throw OAuthError(
                .invalidMetadata, message: "the \(name) of \(issuer) is not an https URL: \(text.prefix(200))")
        }
        return url
    }

    /// Fetches `<issuer>/.well-known/oauth-authorization-server` and runs the atproto profile checks.
    public static func fetch(issuer: String, using transport: any HTTPTransport) async throws(OAuthError)
        -> AuthorizationServerMetadata
    {
        guard let issuerURL = URL(string: issuer) else {
            throw OAuthError(.invalidMetadata, message: "the issuer \(issuer.prefix(200)) is not a URL")
        }
        _ = try SecureURL.require(issuerURL, "the issuer")
        let url = try MetadataDocument.wellKnownURL(issuerURL, "oauth-authorization-server")
        let metadata: AuthorizationServerMetadata = try await MetadataDocument.get(url, using: transport)
        try metadata.validateAtprotoProfile(fetchedFor: issuer)
        return metadata
    }
}

/// Fetching and decoding of well-known metadata documents.
enum MetadataDocument {
    static func wellKnownURL(_ base: URL, _ name: String) throws(OAuthError) -> URL {
        var text = DPoPProof.htu(for: base)
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text + "/.well-known/" + name) else {
            throw OAuthError(.invalidMetadata, message: "no well-known URL for \(base.absoluteString)")
        }
        return url
    }

    static func get<Document: Decodable>(_ url: URL, using transport: any HTTPTransport) async throws(OAuthError)
        -> Document
    {
        let response = try await transport.sendOAuth(.getJSON(url))
        guard response.status == 200 else {
            // A server error may pass (the caller keeps its state); any other answer is no document.
            let kind: OAuthError.Code = response.status >= 500 ? .transport : .invalidMetadata
            throw OAuthError(
                kind, status: response.status, message: "GET \(url.absoluteString) answered HTTP \(response.status)")
        }
        do {
            return try JSONDecoder().decode(Document.self, from: response.body)
        } catch {
            throw OAuthError(
                .invalidMetadata, message: "GET \(url.absoluteString) is not a usable metadata document: \(error)")
        }
    }
}
