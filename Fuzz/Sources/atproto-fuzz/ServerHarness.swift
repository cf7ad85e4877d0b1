import AtprotoCrypto
import AtprotoData
import Dispatch
import Foundation
import FuzzDriver
import FuzzServerLexicons
import XRPCServer

/// What the server targets share: a fixed clock, issuers in an in-memory resolver, their keys, and a
/// router with a query, a procedure and an authenticated procedure.
enum ServerFixture {
    /// The verifiers' clock (Unix seconds); seeds put `exp` near it.
    static let now = 1_800_000_000
    static let service: DID = "did:web:feeds.example.com"

    /// The issuers: alice (k256 `#atproto`), bob (P-256 `#atproto`), a labeler (k256 `#atproto` and
    /// its own `#atproto_label`), and an account whose document has no key.
    static let alice = "did:plc:alice"
    static let bob = "did:plc:bob"
    static let labeler = "did:plc:labeler"
    static let keyless = "did:plc:keyless"

    static let aliceKey = FuzzSigningKey(curve: .secp256k1, seed: "alice")
    static let bobKey = FuzzSigningKey(curve: .p256, seed: "bob")
    static let labelerKey = FuzzSigningKey(curve: .secp256k1, seed: "labeler")
    static let labelKey = FuzzSigningKey(curve: .secp256k1, seed: "labeler's label key")

    /// Signers a target picks by number, with the DID whose document lists each and the key ID.
    static let signers: [(key: FuzzSigningKey?, did: String, fragment: String)] = [
        (aliceKey, alice, "atproto"), (bobKey, bob, "atproto"), (labelerKey, labeler, "atproto"),
        (labelKey, labeler, "atproto_label"),
    ]

    static let resolver: FuzzResolver = {
        var documents: [String: DIDDocument] = [keyless: DIDDocument(id: DID(rawValue: keyless))]
        for (key, did, fragment) in signers {
            guard let key else { continue }
            var methods = documents[did]?.verificationMethods ?? []
            methods.append(
                .init(
                    id: did + "#" + fragment, type: "Multikey", controller: did,
                    publicKeyMultibase: key.publicKey.multikey))
            documents[did] = DIDDocument(id: DID(rawValue: did), verificationMethods: methods)
        }
        return FuzzResolver(documents: documents)
    }()

    /// A verifier at the fixed clock with a fresh replay cache (each input starts from the same state).
    static func verifier(requiresMethodBinding: Bool = true) -> ServiceAuthVerifier {
        ServiceAuthVerifier(
            audience: service, resolver: resolver, requiresMethodBinding: requiresMethodBinding,
            replayCache: ServiceAuthReplayCache(capacity: 64),
            now: { Date(timeIntervalSince1970: TimeInterval(now)) })
    }

    /// A compact JWS of `header` and `payload` (bytes as given, base64url-encoded) signed by `key`.
    static func token(header: [UInt8], payload: [UInt8], key: FuzzSigningKey) -> String {
        let signed = fuzzBase64URL(header) + "." + fuzzBase64URL(payload)
        return signed + "." + fuzzBase64URL(key.sign(Array(signed.utf8)))
    }

    /// The router: `listThings` (a query, auth optional), `putThing` (a procedure with a nested JSON
    /// input, no auth), `whoAmI` (a procedure that needs service auth), a plain route; output checked
    /// against the lexicon, so a handler's 500 is a finding.
    static func router(verifier: ServiceAuthVerifier) -> XRPCRouter {
        var router = XRPCRouter(configuration: .init(maximumBodySize: 64 << 10, validatesOutput: true))
        router.query(ComExampleFuzzListThings.self, auth: verifier.optional) { call in
            let p = call.parameters
            let shown = [
                p.actor.rawValue, String(p.limit ?? -1), String(p.offset ?? -1), (p.kinds ?? []).joined(separator: ","),
                (p.seqs ?? []).map(String.init).joined(separator: ","), p.cursor ?? "",
                p.since?.rawValue ?? "", call.caller?.issuer ?? "anonymous",
            ]
            return ComExampleFuzzListThings.Output(things: shown, cursor: p.cursor)
        }
        router.procedure(ComExampleFuzzPutThing.self) { call in
            ComExampleFuzzPutThing.Output(stored: call.input.parts.count + (call.input.count ?? 0))
        }
        router.procedure(ComExampleFuzzWhoAmI.self, auth: verifier) { call in
            ComExampleFuzzWhoAmI.Output(did: call.caller.did, issuer: call.caller.issuer)
        }
        router.route("GET", "/health") { _ in XRPCServerResponse(status: 200) }
        return router
    }
}

/// DID documents from a table, never cached, never failing but for an unknown DID.
struct FuzzResolver: IdentityResolver {
    let documents: [String: DIDDocument]

    func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        guard let document = documents[did.rawValue] else {
            throw IdentityError(.didNotFound, identifier: did.rawValue, message: "not in the fuzz table")
        }
        return document
    }

    func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        throw IdentityError(.handleNotFound, identifier: handle.rawValue, message: "no handles here")
    }

    func invalidate(did: DID) async {}
}

/// Runs `body` to its end from libFuzzer's (synchronous) callback: the callback's thread waits while
/// the task runs on the concurrency pool.
func runBlocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    done.wait()
}
