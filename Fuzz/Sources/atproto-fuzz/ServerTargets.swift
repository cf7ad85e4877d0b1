import AtprotoData
import Foundation
import FuzzDriver
import XRPCServer

/// The server: service-auth tokens through `ServiceAuthVerifier`, whole requests through `XRPCRouter`.
let serverTargets: [FuzzTarget] = [
    FuzzTarget("service-auth", "a service-auth token (claims signed by a known key, or as given) verified twice") {
        bytes in
        ServiceAuthHarness.run(bytes)
    },
    FuzzTarget("xrpc-router", "a whole request (method, target, headers, body, a signed token) through XRPCRouter") {
        bytes in
        RouterHarness.run(bytes)
    },
]

/// Boundary values a harness puts in `exp` or `iat` in place of the input's own (index 0 keeps it):
/// mutations rarely reach 19-digit numbers, and these are where arithmetic on them breaks.
let extremeTimes: [Int?] = [
    nil, .min, .min + 1, -1, 0, ServerFixture.now - 1, ServerFixture.now, ServerFixture.now + 1,
    ServerFixture.now + 60, ServerFixture.now + 61, ServerFixture.now + 3600, ServerFixture.now + 3661, .max - 1, .max,
    ServerFixture.now - .max, 1 << 53,
]

/// `payload` with `exp` and `iat` replaced by the table entries `expIndex` and `iatIndex` picks (when
/// they pick one and the payload is a JSON object).
func withExtremeTimes(_ payload: [UInt8], expIndex: Int, iatIndex: Int) -> [UInt8] {
    let exp = extremeTimes[expIndex % extremeTimes.count]
    let iat = extremeTimes[iatIndex % extremeTimes.count]
    guard exp != nil || iat != nil, case .object(var claims)? = try? JSONValue.parse(payload) else { return payload }
    if let exp { claims["exp"] = .integer(exp) }
    if let iat { claims["iat"] = .integer(iat) }
    return Array(JSONValue.object(claims).serialized())
}

/// Input: a control byte, then in signed mode an override byte and `header JSON \0 payload JSON` (no
/// NUL: the payload alone, under the signer's usual header), signed by the signer the control byte
/// picks; in raw mode, the whole `Authorization` header value.
///
/// Control byte: bits 0-1 the signer (alice, bob, the labeler's `#atproto` key, its `#atproto_label`
/// key), bit 2 raw mode, bit 3 tokens without `lxm` allowed, bits 4-5 the method called.
enum ServiceAuthHarness {
    static let methods: [NSID] = [
        "app.bsky.feed.getFeedSkeleton", "com.example.fuzz.whoAmI", "com.atproto.moderation.createReport",
        "com.example.fuzz.listThings",
    ]

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let control = Int(input.byte())
        let signer = ServerFixture.signers[control & 3]
        let method = methods[(control >> 4) & 3]
        let verifier = ServerFixture.verifier(requiresMethodBinding: control & 8 == 0)
        let header: String
        let token: String
        let signed = control & 4 == 0
        if !signed {
            header = String(decoding: input.rest(), as: UTF8.self)
            token = header
        } else {
            guard let key = signer.key else { return }
            let overrides = Int(input.byte())
            let rest = input.rest()
            var headerJSON = Array(#"{"alg":"\#(key.algorithm)","typ":"JWT"}"#.utf8)
            var payload = rest
            if let split = rest.firstIndex(of: 0) {
                headerJSON = Array(rest[..<split])
                payload = Array(rest[(split + 1)...])
            }
            payload = withExtremeTimes(payload, expIndex: overrides & 15, iatIndex: overrides >> 4)
            token = ServerFixture.token(header: headerJSON, payload: payload, key: key)
            header = "Bearer " + token
        }
        let request = XRPCServerRequest(
            method: "GET", path: "/xrpc/" + method.rawValue, headers: ["Authorization": header])
        // In signed mode the signature (86 characters) can be in no message: the claims, which
        // messages quote, are what it signs.
        let secret = signed ? token.split(separator: ".").last.map(String.init) : nil
        runBlocking {
            var first: ServiceAuthCaller?
            do throws(XRPCServerError) {
                first = try await verifier.authenticate(request, for: method)
            } catch {
                check(refusal: error, secret: secret)
            }
            guard let caller = first else { return }
            if signed { check(caller, signer: signer, method: method, verifier: verifier) }
            // The same token again: its jti is held, so it is refused.
            do throws(XRPCServerError) {
                let again = try await verifier.verify(token, method: method)
                fuzzCheck(false, "a token with jti \(again.tokenID ?? "") was accepted twice")
            } catch {
                check(refusal: error, secret: secret)
                fuzzCheck(error.code == .jwtReplayed, "a replayed token was refused as \(error.code.rawValue)")
            }
        }
    }

    /// What an accepted token must be: by the key its `iss` names, for this method, live.
    static func check(
        _ caller: ServiceAuthCaller, signer: (key: FuzzSigningKey?, did: String, fragment: String), method: NSID,
        verifier: ServiceAuthVerifier
    ) {
        fuzzCheck(caller.did.rawValue == signer.did, "accepted \(caller.issuer) with the key of \(signer.did)")
        let wantsLabelKey = caller.issuer.hasSuffix("#atproto_labeler")
        fuzzCheck(
            (signer.fragment == "atproto_label") == wantsLabelKey,
            "accepted iss \(caller.issuer) signed by #\(signer.fragment)")
        fuzzCheck(caller.method == nil || caller.method == method, "accepted lxm \(caller.method?.rawValue ?? "")")
        fuzzCheck(caller.method != nil || !verifier.requiresMethodBinding, "accepted a token without lxm")
        let exp = caller.expiration.timeIntervalSince1970
        let horizon = Double(ServerFixture.now) + Double(verifier.maximumLifetime.components.seconds)
        fuzzCheck(exp > Double(ServerFixture.now) && exp <= horizon, "accepted exp \(exp)")
    }

    /// A refusal is a 401 (or 429/503 for a full replay cache) that says something and never the
    /// token's signature.
    static func check(refusal error: XRPCServerError, secret: String?) {
        fuzzCheck([401, 429, 503].contains(error.status), "refused with status \(error.status): \(error)")
        fuzzCheck(!error.message.isEmpty, "refused as \(error.code.rawValue) with no message")
        if let secret, secret.count >= 64 {
            fuzzCheck(!error.message.contains(secret), "the token is in the message: \(error.message)")
        }
    }
}

/// Input: a control byte, then `target\nName: value\n...\n\nbody` (the request line's target, header
/// lines, a blank line, the body).
///
/// Control byte: bits 0-1 the method (GET, POST, HEAD, PUT), bit 2 a valid token of alice's for the
/// target's NSID added, bit 3 one of the labeler's (`#atproto_labeler`, label key) instead, bits 4-5
/// that token's `exp` (60 s ahead, -2^63, 2^63 - 1, now), bit 6 served as an upgrade (`handle`).
enum RouterHarness {
    static let methods = ["GET", "POST", "HEAD", "PUT"]
    static let tokenExpirations = [ServerFixture.now + 60, .min, .max, ServerFixture.now]

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let control = Int(input.byte())
        let text = input.rest()
        var lines = text.split(separator: UInt8(ascii: "\n"), maxSplits: 64, omittingEmptySubsequences: false)
        let target = lines.isEmpty ? "/" : String(decoding: lines.removeFirst(), as: UTF8.self)
        var headers = HTTPHeaderFields()
        var bodyStart = text.endIndex
        for line in lines {
            if line.isEmpty {
                bodyStart = line.endIndex < text.endIndex ? line.endIndex + 1 : text.endIndex
                break
            }
            let field = String(decoding: line, as: UTF8.self)
            let parts = field.split(separator: ":", maxSplits: 1)
            guard let name = parts.first else { continue }
            headers[String(name)] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        if control & 12 != 0 {
            let labeler = control & 8 != 0
            let signer = ServerFixture.signers[labeler ? 3 : 0]
            guard let key = signer.key else { return }
            let nsid = target.split(separator: "?").first.map { $0.split(separator: "/").last.map(String.init) ?? "" }
            let claims: JSONValue = .object([
                "iss": .string(signer.did + (labeler ? "#atproto_labeler" : "")),
                "aud": .string(ServerFixture.service.rawValue), "lxm": .string(nsid ?? ""),
                "exp": .integer(tokenExpirations[(control >> 4) & 3]), "iat": .integer(ServerFixture.now),
                "jti": .string("fuzz"),
            ])
            let header = Array(#"{"alg":"\#(key.algorithm)","typ":"JWT"}"#.utf8)
            let token = ServerFixture.token(header: header, payload: Array(claims.serialized()), key: key)
            headers["Authorization"] = "Bearer " + token
        }
        let request = XRPCServerRequest(
            method: methods[control & 3], target: target, headers: headers, body: Data(text[bodyStart...]))
        let router = ServerFixture.router(verifier: ServerFixture.verifier())
        let upgrading = control & 64 != 0
        runBlocking {
            let response: XRPCServerResponse
            if upgrading, case .response(let answer) = await router.handle(request) {
                response = answer
            } else {
                response = await router.respond(to: request)
            }
            check(response)
        }
    }

    /// Every answer is a known status; an error is a JSON `{error, message}`; none is the handlers' 500.
    static func check(_ response: XRPCServerResponse) {
        fuzzCheck(
            [200, 400, 401, 404, 405, 413, 429, 501, 503].contains(response.status),
            "status \(response.status): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
        guard response.status != 200 else { return }
        let error = (try? JSONValue.parse(response.body))?.objectValue?["error"]?.stringValue
        fuzzCheck(error?.isEmpty == false, "an error answer without its name: \(response.status)")
    }
}
