import Foundation
@_spi(Plumbing) import OAuthCore

/// A signer that returns a fixed 64-byte "signature": for tests that check a JWS's structure only.
/// It signs nothing; no test that needs a valid signature uses it.
struct FixedSignatureSigner: ES256Signer {
    let publicJWK: ECPublicJWK
    let signature: [UInt8]
    let messages = MessageLog()

    init(signature: [UInt8] = Array(repeating: 0xAB, count: 64)) throws {
        // The RFC 7517 appendix A.1 example public key.
        publicJWK = try ECPublicJWK(
            x: Base64URL.decode("MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4") ?? [],
            y: Base64URL.decode("4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM") ?? [])
        self.signature = signature
    }

    func sign(_ message: [UInt8]) async throws -> [UInt8] {
        messages.append(message)
        return signature
    }

    func exportForArchive() throws -> OAuthSigningKeyArchive {
        OAuthSigningKeyArchive(kind: "test-fixed", data: Data([1, 2, 3]))
    }
}

// @unchecked Sendable: `items` is read and written under `lock`.
/// Messages a test signer was asked to sign.
final class MessageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [[UInt8]] = []
    func append(_ message: [UInt8]) { lock.withLock { items.append(message) } }
    var all: [[UInt8]] { lock.withLock { items } }
}

// @unchecked Sendable: `answers` and `requests` are read and written under `lock`.
/// An HTTP transport that answers from a script and records the requests.
final class ScriptedHTTPClient: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [HTTPTransportResponse]
    private var requests: [HTTPTransportRequest] = []

    init(_ answers: [HTTPTransportResponse]) { self.answers = answers }

    func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        let answer: HTTPTransportResponse? = lock.withLock {
            requests.append(request)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
        guard let answer else { throw HTTPTransportError(.other, request: request, message: "no scripted answer left") }
        return answer
    }

    var sent: [HTTPTransportRequest] { lock.withLock { requests } }
}

/// The JSON object of a JWS part.
func jsonObject(_ bytes: [UInt8]) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
}

/// Form fields of a request body.
func formFields(_ request: HTTPTransportRequest) -> [String: String] {
    let text = String(decoding: request.body ?? Data(), as: UTF8.self)
    return Dictionary(FormEncoding.decode(text), uniquingKeysWith: { first, _ in first })
}

/// The metadata the shared PDS serves, as a JSON object to vary in hostile tests.
func pdsMetadata(issuer: String = "https://pds.example.com") -> [String: Any] {
    [
        "issuer": issuer, "authorization_endpoint": "\(issuer)/oauth/authorize",
        "token_endpoint": "\(issuer)/oauth/token", "pushed_authorization_request_endpoint": "\(issuer)/oauth/par",
        "require_pushed_authorization_requests": true, "revocation_endpoint": "\(issuer)/oauth/revoke",
        "response_types_supported": ["code"], "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "private_key_jwt"],
        "token_endpoint_auth_signing_alg_values_supported": ["ES256"], "dpop_signing_alg_values_supported": ["ES256"],
        "scopes_supported": ["atproto", "transition:generic"], "authorization_response_iss_parameter_supported": true,
        "client_id_metadata_document_supported": true,
    ]
}

func jsonData(_ object: Any) -> Data {
    (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
}
