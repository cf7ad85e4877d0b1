// The cost of the XRPC layer on a feed generator's hot path, in process through XRPCServer's core (no
// sockets, no HTTP parsing): getFeedSkeleton (50 posts) through the router (parameters typed and
// validated, the service-auth token verified with a cached DID document, the output encoded) beside a
// bare route of the same router answering the same bytes; and one service-auth verification beside
// the one ECDSA verification inside it. Alternating rounds, median CPU time per operation.
//
//     swift run -c release --package-path Benchmarks server-bench [rounds, default 15]
//
// With the trait XRPCHummingbird (swift run -c release --package-path Benchmarks --traits XRPCHummingbird server-bench), the same
// comparison runs over HTTP too, against a bare Hummingbird route, loaded by wrk (Debian's package).
//
// The token is reused, so the verifier's replay cache is off here (a jti is accepted once): what is
// left out is one dictionary insertion under a lock per call.
import AtprotoCrypto
import AtprotoIdentityResolution
import AtprotoLexicons
import BenchmarkSupport
import Foundation
import XRPCServer

let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 15

/// DID documents from a table, behind the caching resolver a server would use.
struct TableResolver: IdentityResolver {
    let documents: [String: DIDDocument]

    func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        guard let document = documents[did.rawValue] else {
            throw IdentityError(.didNotFound, identifier: did.rawValue, message: "not in the table")
        }
        return document
    }

    func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        throw IdentityError(.handleNotFound, identifier: handle.rawValue, message: "no handles")
    }

    func invalidate(did: DID) async {}
}

func document(_ did: String, _ multikey: String) -> DIDDocument {
    DIDDocument(
        id: DID(rawValue: did),
        verificationMethods: [
            .init(id: did + "#atproto", type: "Multikey", controller: did, publicKeyMultibase: multikey)
        ])
}

struct Failure: Error, CustomStringConvertible {
    var description: String
}

let resolver = CachingIdentityResolver(
    wrapping: TableResolver(documents: [
        BenchmarkTokens.k256Issuer: document(BenchmarkTokens.k256Issuer, BenchmarkTokens.k256Key),
        BenchmarkTokens.p256Issuer: document(BenchmarkTokens.p256Issuer, BenchmarkTokens.p256Key),
    ]))
let verifier = ServiceAuthVerifier(
    audience: DID(rawValue: BenchmarkTokens.audience), resolver: resolver, replayCache: nil,
    now: { Date(timeIntervalSince1970: 1_800_000_001) })

// The feed: 50 post URIs, as an index would hand them over.
let feedURI = ATURI(rawValue: "at://did:plc:publisher0000000000000000/app.bsky.feed.generator/swift")
let posts = (0..<50).map {
    ATURI(rawValue: "at://did:plc:author\($0 % 7)00000000000000000/app.bsky.feed.post/3l\($0)abcdefghij")
}
let output = AppBskyFeedGetFeedSkeleton.Output(feed: posts.map { .init(post: $0) }, cursor: "1234")
let outputBytes = try output.xrpcBody()?.data ?? Data()

var router = XRPCRouter()
router.query(AppBskyFeedGetFeedSkeleton.self, auth: verifier.optional) { call in
    guard call.parameters.feed == feedURI else {
        throw XRPCServerError.declared(AppBskyFeedGetFeedSkeleton.Error.unknownFeed, message: "unknown feed")
    }
    return AppBskyFeedGetFeedSkeleton.Output(
        feed: posts.prefix(call.parameters.limit ?? 50).map { .init(post: $0) }, cursor: "1234")
}
router.route("GET", "/bare") { _ in
    XRPCServerResponse(status: 200, headers: ["content-type": "application/json"], body: outputBytes)
}

let query = "feed=" + feedURI.rawValue + "&limit=50"
let authenticated = XRPCServerRequest(
    method: "GET", path: "/xrpc/app.bsky.feed.getFeedSkeleton", query: query,
    headers: ["authorization": "Bearer " + BenchmarkTokens.k256Token, "host": "feeds.example.com"])
let anonymous = XRPCServerRequest(
    method: "GET", path: "/xrpc/app.bsky.feed.getFeedSkeleton", query: query, headers: ["host": "feeds.example.com"])
let bare = XRPCServerRequest(method: "GET", path: "/bare", query: query, headers: ["host": "feeds.example.com"])

// The answers are the same bytes, and the token passes: otherwise the figures mean nothing.
for request in [authenticated, anonymous] {
    let answer = await router.respond(to: request)
    guard answer.status == 200, answer.body == outputBytes else {
        throw Failure(
            description: "getFeedSkeleton answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
    }
}

/// What ours adds over the reference, per operation (medians).
func printOverhead(_ comparison: Comparison) {
    guard let reference = comparison.reference else { return }
    let added = comparison.ours.median - reference.median
    print(String(format: "  added by the XRPC layer: %.2f µs per request", added * 1e6))
}

let requests = 2000
/// `count` requests in a row, off the main actor (so that no call in the loop hops executors: the
/// figures are the router's, not the harness's).
nonisolated func serve(_ router: XRPCRouter, _ request: XRPCServerRequest, count: Int) async throws {
    for _ in 0..<count where await router.respond(to: request).status != 200 {
        throw Failure(description: "a request failed")
    }
}

print("server-bench: median CPU time per operation over \(rounds) alternating rounds, in process (no HTTP)")
let report = Report(unit: "requests")
let withAuth = try await alternatingAsyncRounds(
    rounds: rounds, operations: requests, ours: { try await serve(router, authenticated, count: requests) },
    inProcessReference: { try await serve(router, bare, count: requests) })
for line in report.lines(
    withAuth, ours: "getFeedSkeleton, service auth (k256)", reference: "bare route, same bytes")
{ print(line) }
printOverhead(withAuth)
let noAuth = try await alternatingAsyncRounds(
    rounds: rounds, operations: requests, ours: { try await serve(router, anonymous, count: requests) },
    inProcessReference: { try await serve(router, bare, count: requests) })
for line in report.lines(noAuth, ours: "getFeedSkeleton, anonymous", reference: "bare route, same bytes") {
    print(line)
}
printOverhead(noAuth)

/// `count` verifications in a row, off the main actor.
nonisolated func verify(_ verifier: ServiceAuthVerifier, _ token: String, issuer: String, count: Int) async throws {
    for _ in 0..<count {
        let caller = try await verifier.verify(token, method: "app.bsky.feed.getFeedSkeleton")
        guard caller.did.rawValue == issuer else { throw Failure(description: "wrong caller") }
    }
}

// One verification beside the ECDSA verification it contains.
let verifications = 300
let verifyReport = Report(unit: "verifications")
for (name, token, issuer, multikey) in [
    ("k256", BenchmarkTokens.k256Token, BenchmarkTokens.k256Issuer, BenchmarkTokens.k256Key),
    ("P-256", BenchmarkTokens.p256Token, BenchmarkTokens.p256Issuer, BenchmarkTokens.p256Key),
] {
    let key = try AtprotoPublicKey(multikey: multikey)
    let parts = token.split(separator: ".")
    let signed = Array((parts[0] + "." + parts[1]).utf8)
    var base64 = String(parts[2]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    let signature = Array(Data(base64Encoded: base64) ?? Data())
    let comparison = try await alternatingAsyncRounds(
        rounds: rounds, operations: verifications,
        ours: {
            try await verify(verifier, token, issuer: issuer, count: verifications)
        },
        inProcessReference: {
            for _ in 0..<verifications where !key.isValidSignature(signature, for: signed) {
                throw Failure(description: "the signature did not verify")
            }
        })
    for line in verifyReport.lines(
        comparison, ours: "service-auth verification (\(name))", reference: "one ECDSA verification (\(name))")
    { print(line) }
}

// The output alone: written as text straight from the generated types (what the router sends) beside
// its JSON tree built and then serialized (how it was written before).
let writes = 2000
guard output.lexiconJSON.serialized() == outputBytes else {
    throw Failure(description: "the output written as text is not the bytes of its tree serialized")
}
let writing = try alternatingRounds(
    rounds: rounds, operations: writes,
    ours: {
        for _ in 0..<writes where output.jsonData().count != outputBytes.count {
            throw Failure(description: "not the same bytes")
        }
    },
    reference: {
        let start = threadCPUTime()
        for _ in 0..<writes where output.lexiconJSON.serialized().count != outputBytes.count {
            throw Failure(description: "not the same bytes")
        }
        return threadCPUTime() - start
    })
for line in Report(unit: "writes").lines(
    writing, ours: "output written as text (50 posts)", reference: "output as a tree, then serialized")
{ print(line) }

// The subscription frames: written from the types beside through their JSON form.
try EventFrames.run(rounds: rounds)

#if XRPCHummingbird
    let k256 = try AtprotoPublicKey(multikey: BenchmarkTokens.k256Key)
    let tokenParts = BenchmarkTokens.k256Token.split(separator: ".")
    let signedPart = Array((tokenParts[0] + "." + tokenParts[1]).utf8)
    var signature64 = String(tokenParts[2]).replacingOccurrences(of: "-", with: "+")
        .replacingOccurrences(of: "_", with: "/")
    signature64 += String(repeating: "=", count: (4 - signature64.count % 4) % 4)
    let k256Signature = Array(Data(base64Encoded: signature64) ?? Data())
    try await HTTPComparison.run(
        router: router, bareBody: outputBytes, query: query, token: BenchmarkTokens.k256Token, rounds: rounds,
        signatureCheck: { k256.isValidSignature(k256Signature, for: signedPart) })
#endif
