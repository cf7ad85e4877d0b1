import AtprotoIdentityResolution
import AtprotoOAuth
import Foundation
import LoopbackHTTPServer
@_spi(Plumbing) import OAuthCore
import XRPCRuntime

/// A signer with a fixed "signature": the fake servers here check structure, never signatures. It
/// signs nothing; tests that need real signatures are SwiftCryptoSignerTests (trait SwiftCryptoSigner).
struct FixedSignatureSigner: ES256Signer {
    let publicJWK: ECPublicJWK
    init() throws {
        publicJWK = try ECPublicJWK(x: Array(repeating: 1, count: 32), y: Array(repeating: 2, count: 32))
    }
    func sign(_ message: [UInt8]) async throws -> [UInt8] { Array(repeating: 0xAB, count: 64) }
    func exportForArchive() throws -> OAuthSigningKeyArchive {
        OAuthSigningKeyArchive(kind: "test-fixed", data: Data([7]))
    }
}

struct FixedKeyFactory: ES256KeyFactory {
    func makeKey() async throws -> any ES256Signer { try FixedSignatureSigner() }
    func restoreKey(from archive: OAuthSigningKeyArchive) async throws -> any ES256Signer { try FixedSignatureSigner() }
}

/// Identities from a table: DID -> PDS URL, handle -> DID.
struct TableResolver: IdentityResolver {
    var pds: [String: URL]
    var handles: [String: String] = [:]

    func invalidate(did: DID) async {}

    func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        guard let did = handles[handle.rawValue] else {
            throw IdentityError(.handleNotFound, identifier: handle.rawValue, message: "not in the table")
        }
        return DID(rawValue: did)
    }

    func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        guard let url = pds[did.rawValue] else {
            throw IdentityError(.didNotFound, identifier: did.rawValue, message: "no")
        }
        let handle = handles.first { $0.value == did.rawValue }?.key
        let json = """
            {"id":"\(did.rawValue)","alsoKnownAs":[\(handle.map { "\"at://\($0)\"" } ?? "")],
             "service":[{"id":"#atproto_pds","type":"AtprotoPersonalDataServer","serviceEndpoint":"\(url.absoluteString)"}]}
            """
        do {
            return try DIDDocument(jsonData: Data(json.utf8))
        } catch {
            throw IdentityError(.malformedAnswer, identifier: did.rawValue, message: "\(error)")
        }
    }
}

// @unchecked Sendable: every `var` is under `lock`, but `server`: set in `init`, before its port is known.
/// A PDS that is its own authorization server, with answers a test can make hostile.
final class FakeOAuthServer: @unchecked Sendable {
    struct Behaviour {
        /// The issuer its AS metadata claims (`nil`: its own URL).
        var metadataIssuer: String?
        /// The AS its resource metadata names (`nil`: itself).
        var namedAuthorizationServer: String?
        /// The `sub` of the tokens it issues.
        var tokenSub = "did:plc:alice"
        /// Access token lifetime.
        var expiresIn = 300
        /// Answer the first resource call of each token with a `use_dpop_nonce` challenge.
        var challengeNonce = true
        /// Answer refresh grants with `invalid_grant`.
        var refuseRefresh = false
        /// Answer the resource metadata with 503.
        var resourceMetadataUnavailable = false
        /// The `token_type` of the tokens it issues (`nil`: the field is left out).
        var tokenType: String? = "DPoP"
        /// Whether a token answer carries the refresh token it issued (it rotates either way).
        var sendsRefreshToken = true
        /// Answer every resource call `401 invalid_token`, whatever the token.
        var refuseCalls = false
        /// Answer resource calls with these access tokens `401 invalid_token`.
        var refusedTokens: Set<String> = []
        /// Answer every resource call with a new `use_dpop_nonce` challenge.
        var challengeEveryCall = false
        /// Answer a token's first resource call with two `WWW-Authenticate` fields: a `Bearer`
        /// challenge, then the `DPoP` `use_dpop_nonce` one.
        var challengeBehindBearer = false
        /// Answer revocations with 503.
        var revocationUnavailable = false
    }

    private let lock = NSLock()
    private var behaviourValue = Behaviour()
    private var counts: [String: Int] = [:]
    private var issued = 0
    private var challenged: Set<String> = []
    private var seenHeaders: [HTTPHeaderFields] = []
    private var revoked: [String] = []
    /// The one refresh token a refresh grant accepts: tokens rotate, a spent one is refused.
    private var liveRefreshToken: String?
    private(set) var server: LoopbackHTTPServer?

    init() throws {
        let server = try LoopbackHTTPServer { [weak self] request in
            self?.answer(request) ?? LoopbackHTTPServer.Response(status: 500)
        }
        self.server = server
    }

    deinit { server?.stop() }

    var url: URL { server?.baseURL ?? URL(fileURLWithPath: "/") }
    var origin: String { SecureURL.origin(of: url) }

    var behaviour: Behaviour {
        get { lock.withLock { behaviourValue } }
        set { lock.withLock { behaviourValue = newValue } }
    }

    func count(_ path: String) -> Int { lock.withLock { counts[path] ?? 0 } }
    var resourceHeaders: [HTTPHeaderFields] { lock.withLock { seenHeaders } }
    /// The tokens revocation requests named, in order.
    var revokedTokens: [String] { lock.withLock { revoked } }

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let behaviour = lock.withLock {
            counts[request.path, default: 0] += 1
            return behaviourValue
        }
        let issuer = origin
        switch request.path {
        case "/.well-known/oauth-protected-resource" where behaviour.resourceMetadataUnavailable:
            return LoopbackHTTPServer.Response(status: 503)
        case "/.well-known/oauth-protected-resource":
            let server = behaviour.namedAuthorizationServer ?? issuer
            return .json(#"{"resource":"\#(issuer)","authorization_servers":["\#(server)"]}"#)
        case "/.well-known/oauth-authorization-server":
            return .json(Self.metadata(issuer: behaviour.metadataIssuer ?? issuer, endpoints: issuer))
        case "/oauth/par":
            return .json(
                #"{"request_uri":"urn:test:req-1","expires_in":60}"#, status: 201, headers: ["DPoP-Nonce": "as-n1"])
        case "/oauth/token":
            let fields = Dictionary(
                FormEncoding.decode(String(decoding: request.body, as: UTF8.self)), uniquingKeysWith: { a, _ in a })
            if fields["grant_type"] == "refresh_token", behaviour.refuseRefresh {
                return .json(#"{"error":"invalid_grant","error_description":"revoked"}"#, status: 400)
            }
            return lock.withLock { () -> LoopbackHTTPServer.Response in
                if fields["grant_type"] == "refresh_token", fields["refresh_token"] != liveRefreshToken {
                    return .json(
                        #"{"error":"invalid_grant","error_description":"refresh token replayed"}"#, status: 400)
                }
                issued += 1
                liveRefreshToken = "rt-\(issued)"
                return .json(Self.tokenAnswer(issued, behaviour), headers: ["DPoP-Nonce": "as-n2"])
            }
        case "/oauth/revoke":
            let fields = FormEncoding.decode(String(decoding: request.body, as: UTF8.self))
            lock.withLock { revoked += fields.filter { $0.0 == "token" }.map(\.1) }
            return LoopbackHTTPServer.Response(status: behaviour.revocationUnavailable ? 503 : 200)
        default:
            return resource(request, behaviour)
        }
    }

    private func resource(_ request: LoopbackHTTPServer.Request, _ behaviour: Behaviour) -> LoopbackHTTPServer.Response
    {
        let authorization = request.headers["authorization"] ?? ""
        lock.withLock { seenHeaders.append(request.headers) }
        guard authorization.hasPrefix("DPoP "), request.headers["dpop"] != nil else {
            return .json(#"{"error":"AuthenticationRequired"}"#, status: 401)
        }
        let token = String(authorization.dropFirst(5))
        let (first, challenges) = lock.withLock { (challenged.insert(token).inserted, seenHeaders.count) }
        if behaviour.challengeEveryCall {
            return .json(
                #"{"error":"use_dpop_nonce"}"#, status: 401,
                headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "rs-n\(challenges)"])
        }
        if behaviour.challengeBehindBearer, first {
            var fields = HTTPHeaderFields()
            fields.append("WWW-Authenticate", #"Bearer realm="pds""#)
            fields.append("WWW-Authenticate", #"DPoP error="use_dpop_nonce", algs="ES256""#)
            fields.append("DPoP-Nonce", "rs-n1")
            return .json(#"{"error":"use_dpop_nonce"}"#, status: 401, headers: fields)
        }
        if behaviour.challengeNonce, first {
            return .json(
                #"{"error":"use_dpop_nonce"}"#, status: 401,
                headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "rs-n1"])
        }
        if behaviour.refuseRefresh || behaviour.refuseCalls || behaviour.refusedTokens.contains(token) {
            return .json(
                #"{"error":"invalid_token"}"#, status: 401,
                headers: ["WWW-Authenticate": #"DPoP error="invalid_token""#])
        }
        return .json(#"{"did":"\#(behaviour.tokenSub)","token":"\#(token)"}"#)
    }

    /// The token answer of the `number`-th issue.
    static func tokenAnswer(_ number: Int, _ behaviour: Behaviour) -> String {
        var fields = [
            #""access_token":"at-\#(number)""#, #""expires_in":\#(behaviour.expiresIn)"#,
            #""scope":"atproto transition:generic""#, #""sub":"\#(behaviour.tokenSub)""#,
        ]
        if let type = behaviour.tokenType { fields.append(#""token_type":"\#(type)""#) }
        if behaviour.sendsRefreshToken { fields.append(#""refresh_token":"rt-\#(number)""#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func metadata(issuer: String, endpoints: String) -> String {
        """
        {"issuer":"\(issuer)","authorization_endpoint":"\(endpoints)/oauth/authorize","token_endpoint":"\(endpoints)/oauth/token",
         "pushed_authorization_request_endpoint":"\(endpoints)/oauth/par","require_pushed_authorization_requests":true,
         "revocation_endpoint":"\(endpoints)/oauth/revoke","response_types_supported":["code"],
         "grant_types_supported":["authorization_code","refresh_token"],"code_challenge_methods_supported":["S256"],
         "token_endpoint_auth_methods_supported":["none","private_key_jwt"],"dpop_signing_alg_values_supported":["ES256"],
         "scopes_supported":["atproto","transition:generic"],"authorization_response_iss_parameter_supported":true,
         "client_id_metadata_document_supported":true}
        """
    }
}

/// A client of `server` for `did:plc:alice` (handle alice.test) whose PDS is `pds` (default: `server`).
func makeClient(resolver: TableResolver) -> AtprotoOAuthClient {
    AtprotoOAuthClient(
        configuration: .development(), keyFactory: FixedKeyFactory(), resolver: resolver,
        refreshLock: OAuthInProcessRefreshLock())
}

/// The callback the server would send for `pending`.
func callback(_ pending: OAuthPendingAuthorization, state: String? = nil, iss: String? = nil, code: String = "cod-1")
    -> URL
{
    let query = FormEncoding.encode([("code", code), ("state", state ?? pending.state), ("iss", iss ?? pending.issuer)])
    return URL(string: pending.redirectURI + "?" + String(decoding: query, as: UTF8.self)) ?? URL(fileURLWithPath: "/")
}

/// The session's archive, or a thrown failure when it has none.
func currentArchive(of session: OAuthSession) async throws -> OAuthSessionArchive {
    guard let archive = await session.archive else {
        throw OAuthError(.invalidResponse, message: "the session has no archive")
    }
    return archive
}

/// The first update `stream` yields within `limit`, or `nil`: a missing update fails a test, never hangs it.
func firstUpdate(of stream: AsyncStream<OAuthSessionUpdate>, within limit: Duration = .seconds(5)) async
    -> OAuthSessionUpdate?
{
    await withTaskGroup(of: OAuthSessionUpdate?.self) { group in
        group.addTask {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try? await Task.sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
