import AtprotoCrypto
import AtprotoIdentityResolution
import AtprotoSyntax
import Foundation

/// The caller a service-auth token proves: the issuing account, and what the token was for.
public struct ServiceAuthCaller: Sendable, Hashable {
    /// The account (or service) that signed the token: `iss` without its `#service` fragment.
    public var did: DID
    /// `iss` as sent (with its fragment, for a service such as `#atproto_labeler`).
    public var issuer: String
    /// `aud`: this service.
    public var audience: String
    /// `lxm`: the method the token is bound to, when it names one.
    public var method: NSID?
    /// `exp`.
    public var expiration: Date
    /// `jti`, when the token has one.
    public var tokenID: String?
}

/// Verifies inter-service JWTs (atproto.com/specs/xrpc, "Inter-Service Authentication"): the issuer's
/// DID resolved to its `#atproto` key (its `#atproto_label` key when `iss` is `<did>#atproto_labeler`:
/// a labeler signs with its label key), the ES256K or ES256 signature checked with `AtprotoCrypto`
/// (compact, low-S only), `aud` this service, `exp` in the future, `lxm` the method called, and each
/// `jti` accepted once.
///
/// When the signature does not check with the key the resolver gave (perhaps cached), the DID is
/// resolved once more, uncached (`IdentityResolver.invalidate(did:)`), and checked again: an account
/// whose key rotated is not refused until its cache entry expires.
///
/// Refusals are 401 with the reason's name: `AuthenticationRequired` (no bearer token), `BadJwt`,
/// `JwtExpired`, `BadJwtAudience`, `BadJwtLexiconMethod`, `BadJwtSignature`, `JwtReplayed`; and, from
/// the replay cache, 429 `RateLimitExceeded` for an issuer holding its share of live tokens already,
/// 503 `NotEnoughResources` when the whole cache is full. The token never appears in a message.
///
/// ```swift
/// let verifier = ServiceAuthVerifier(audience: "did:web:feeds.example.com", resolver: resolver)
/// router.query(AppBskyFeedGetFeedSkeleton.self, auth: verifier.optional) { call in
///     print(call.caller?.did ?? "anonymous")
///     ...
/// }
/// ```
public struct ServiceAuthVerifier: XRPCAuthenticator {
    /// The `aud` values accepted: this service's DID, and `did#service` forms of it.
    public let audiences: Set<String>
    /// Where issuers' DID documents come from (a `CachingIdentityResolver` in a server).
    public let resolver: any IdentityResolver
    /// Whether a token must name the method in `lxm` (default true; the reference PDS only issues
    /// long-lived tokens with one).
    public let requiresMethodBinding: Bool
    /// The longest a token bound to a method (`lxm`) may still be valid, from now: tokens expiring
    /// later are refused, which also bounds how long their `jti` is held. Default one hour and a
    /// minute: the reference PDS issues tokens of at most an hour, and only with a method (its default
    /// is 60 s), plus a minute for clocks that differ.
    public let maximumLifetime: Duration
    /// The same for a token without `lxm` (accepted only when ``requiresMethodBinding`` is off).
    /// Default two minutes: the reference PDS issues such tokens for at most one, plus a minute for
    /// clocks that differ.
    public let maximumUnboundLifetime: Duration
    /// Seen `jti`s, or `nil` to accept tokens more than once.
    public let replayCache: ServiceAuthReplayCache?
    /// How long the key that proved an issuer's token is used for its next tokens without asking
    /// the resolver (default 60 s; zero asks every time). A key rotated meanwhile keeps passing for
    /// at most that long, as it would while the resolver's own cache holds the old document.
    public let recentKeyLifetime: Duration
    let now: @Sendable () -> Date
    let keys = ParsedKeys()

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - audience: This service's DID (`did:web:feeds.example.com`); a token's `aud` must be it or
    ///     `audience#<service>`.
    ///   - resolver: Resolves issuers' DIDs; cache it, the verifier invalidates an entry when a key
    ///     seems to have rotated.
    ///   - requiresMethodBinding: Whether a token without `lxm` is refused.
    ///   - maximumLifetime: The longest a token bound to a method may still be valid from now.
    ///   - maximumUnboundLifetime: The longest a token without `lxm` may still be valid from now.
    ///   - recentKeyLifetime: How long an issuer's proven key is reused without the resolver.
    ///   - replayCache: Where accepted `jti`s are held (share one per service); `nil` turns replay
    ///     protection off.
    ///   - now: The clock (tests pass their own).
    public init(
        audience: DID, resolver: any IdentityResolver, requiresMethodBinding: Bool = true,
        maximumLifetime: Duration = .seconds(3660), maximumUnboundLifetime: Duration = .seconds(120),
        replayCache: ServiceAuthReplayCache? = ServiceAuthReplayCache(), recentKeyLifetime: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.maximumUnboundLifetime = maximumUnboundLifetime
        self.recentKeyLifetime = recentKeyLifetime
        self.audiences = [audience.rawValue]
        self.resolver = resolver
        self.requiresMethodBinding = requiresMethodBinding
        self.maximumLifetime = maximumLifetime
        self.replayCache = replayCache
        self.now = now
    }

    /// The caller of a request with `Authorization: Bearer <token>` calling `nsid`.
    public func authenticate(_ request: XRPCServerRequest, for nsid: NSID) async throws(XRPCServerError)
        -> ServiceAuthCaller
    {
        guard let header = request.header("authorization") else {
            throw XRPCServerError(
                .authenticationRequired, headers: ["www-authenticate": "Bearer"],
                message: "this method needs service auth: Authorization: Bearer <JWT>")
        }
        guard let token = Self.bearerToken(header) else {
            throw XRPCServerError(
                .authenticationRequired, headers: ["www-authenticate": "Bearer"],
                message: "the Authorization header is not a Bearer token")
        }
        return try await verify(token, method: nsid)
    }

    /// The token of `Bearer <token>` (the scheme in any case, spaces around the token ignored).
    static func bearerToken(_ header: String) -> String? {
        let bytes = header.utf8
        let scheme = "bearer".utf8
        guard bytes.count > scheme.count,
            zip(bytes.prefix(scheme.count), scheme).allSatisfy({ $0 | 0x20 == $1 }),
            bytes.dropFirst(scheme.count).first == UInt8(ascii: " ")
        else { return nil }
        let rest = bytes.dropFirst(scheme.count).drop { $0 == UInt8(ascii: " ") }
        var end = rest.endIndex
        while end > rest.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: " ") {
            end = bytes.index(before: end)
        }
        guard rest.startIndex < end else { return nil }
        return String(Substring(header.utf8[rest.startIndex..<end]))
    }

    /// Checks `token` for a call of `method`, in this order: form (a JOSE header with `crit` is
    /// refused: this verifier understands no extension), `exp`, `aud`, `lxm`, signature, then `jti`
    /// (only a token that proves out can use up its ID).
    public func verify(_ token: String, method: NSID) async throws(XRPCServerError) -> ServiceAuthCaller {
        let parsed = try ServiceAuthToken(parsing: token)
        // exp is the caller's number: all arithmetic on it is clamped (exp = -2^63 must not trap).
        let nowSeconds = UnixSeconds.of(now())
        guard nowSeconds < parsed.expiration else {
            let ago = UnixSeconds.subtracting(nowSeconds, parsed.expiration)
            throw XRPCServerError(
                .jwtExpired, message: "the token expired \(ago) s ago (exp \(parsed.expiration))")
        }
        let lifetime = UnixSeconds.of(parsed.method == nil ? maximumUnboundLifetime : maximumLifetime)
        guard UnixSeconds.subtracting(parsed.expiration, nowSeconds) <= lifetime else {
            let kind = parsed.method == nil ? "a token without lxm" : "the token"
            throw XRPCServerError(
                .badJwt, message: "\(kind) expires more than \(lifetime) s from now (exp \(parsed.expiration))")
        }
        guard audiences.contains(parsed.audience) || audiences.contains(where: { parsed.audience.hasPrefix($0 + "#") })
        else {
            throw XRPCServerError(
                .badJwtAudience,
                message: "the token is for \(ParameterSchema.quoted(parsed.audience)), not this service")
        }
        switch parsed.method {
        case nil where requiresMethodBinding:
            throw XRPCServerError(.badJwtLexiconMethod, message: "the token is not bound to a method (no lxm)")
        case let bound? where bound != method.rawValue:
            throw XRPCServerError(
                .badJwtLexiconMethod,
                message: "the token is for \(ParameterSchema.quoted(bound)), not \(method.rawValue)")
        default: break
        }
        try await checkSignature(parsed, now: nowSeconds)
        if let replayCache {
            guard let tokenID = parsed.tokenID else {
                throw XRPCServerError(.badJwt, message: "the token has no jti, so it could be replayed")
            }
            switch replayCache.insert(
                issuer: parsed.issuer.rawValue, tokenID: tokenID, expiration: parsed.expiration, now: nowSeconds)
            {
            case .accepted: break
            case .replayed: throw XRPCServerError(.jwtReplayed, message: "this token was already used")
            case .issuerFull(let retryAfter):
                throw XRPCServerError(
                    .rateLimitExceeded, headers: ["retry-after": String(retryAfter)],
                    message:
                        "\(parsed.issuer.rawValue) already holds \(replayCache.perIssuerCapacity) live service-auth "
                        + "tokens here; try again in \(retryAfter) s")
            case .full:
                throw XRPCServerError(
                    .notEnoughResources, message: "too many live service-auth tokens; try again later")
            }
        }
        return ServiceAuthCaller(
            did: parsed.issuer, issuer: parsed.issuerClaim, audience: parsed.audience,
            method: parsed.method.map(NSID.init(rawValue:)),
            expiration: Date(timeIntervalSince1970: TimeInterval(parsed.expiration)), tokenID: parsed.tokenID)
    }

    /// The signature by the issuer's key (`#atproto`, or `#atproto_label` for a labeler's token):
    /// the one remembered, else the resolver's; on failure, once more with a fresh DID document.
    private func checkSignature(_ token: ServiceAuthToken, now: Int) async throws(XRPCServerError) {
        let did = token.issuer
        let keyID = token.keyID
        if let key = keys.recentKey(of: did, keyID: keyID, now: now), Self.signs(key, token) { return }
        if let key = try await signingKey(of: did, keyID: keyID, fresh: false), Self.signs(key, token) {
            return remember(key, of: did, keyID: keyID, now: now)
        }
        keys.forget(did, keyID: keyID)
        guard let key = try await signingKey(of: did, keyID: keyID, fresh: true) else {
            throw XRPCServerError(.badJwtSignature, message: "\(did.rawValue) has no usable #\(keyID) key")
        }
        guard Self.signs(key, token) else {
            throw XRPCServerError(
                .badJwtSignature, message: "the signature is not by \(did.rawValue)'s #\(keyID) key")
        }
        remember(key, of: did, keyID: keyID, now: now)
    }

    private func remember(_ key: AtprotoPublicKey, of did: DID, keyID: String, now: Int) {
        let lifetime = UnixSeconds.of(recentKeyLifetime)
        if lifetime > 0 { keys.remember(key, of: did, keyID: keyID, until: UnixSeconds.adding(now, lifetime)) }
    }

    static func signs(_ key: AtprotoPublicKey, _ token: ServiceAuthToken) -> Bool {
        key.curve == token.curve && key.isValidSignature(token.signature, for: token.signedBytes)
    }

    /// The issuer's key `keyID`, or `nil` when its document has none that can be read.
    private func signingKey(of did: DID, keyID: String, fresh: Bool) async throws(XRPCServerError) -> AtprotoPublicKey?
    {
        if fresh { await resolver.invalidate(did: did) }
        let document: DIDDocument
        do {
            document = try await resolver.resolveDID(did)
        } catch {
            throw XRPCServerError(
                .badJwtSignature, message: "the issuer \(did.rawValue) could not be resolved: \(error.message)")
        }
        return keys.signingKey(of: document, keyID: keyID)
    }
}
