import AtprotoIdentityResolution
import AtprotoLexicons
import FeedGenerator
import Foundation
import XCTest
import XRPCHummingbird
import XRPCRuntime
import XRPCServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The feed generator against the shared PDS (`scripts/pds.sh start`): a post written through a
/// session reaches the skeleton through the verified firehose, and tokens the PDS mints are accepted
/// or refused as they must be. Skipped unless ATPROTO_PDS_URL is set.
final class PDSFeedGeneratorTests: XCTestCase {
    struct Fixture {
        let pds: URL
        let session: PasswordSession
        let did: DID
        let port: Int
        let configuration: FeedGeneratorService.Configuration
        let resolver: CachingIdentityResolver
        let index: FeedIndex
        let service: FeedGeneratorService
        let word: String

        var tokens: ServiceAuthTokens { ServiceAuthTokens(agent: session) }
        var base: URL { URL(string: "http://127.0.0.1:\(port)")! }
    }

    static let skeleton: NSID = "app.bsky.feed.getFeedSkeleton"
    var tasks: [Task<Void, Never>] = []

    override func tearDown() {
        for task in tasks { task.cancel() }
    }

    func fixture() async throws -> Fixture {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["ATPROTO_PDS_URL"], let pds = URL(string: text) else {
            throw XCTSkip(
                "set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\" in the package root) to run these tests")
        }
        let session = PasswordSession(service: pds)
        let archive = try await session.login(
            ATIdentifier(rawValue: environment["ATPROTO_PDS_HANDLE"] ?? "alice.test"),
            password: environment["ATPROTO_PDS_PASSWORD"] ?? "hunter2")
        let port = try Self.freePort()
        let resolver = CachingIdentityResolver(
            wrapping: StandardIdentityResolver(
                handles: WellKnownHandleResolver(),
                dids: StandardDIDResolver(
                    plc: PLCDirectoryResolver(directory: pds.appendingPathComponent("plc")), web: WebDIDResolver())))
        let word = "swiftfeed\(UInt32.random(in: 0...UInt32.max))"
        let configuration = FeedGeneratorService.Configuration(
            serviceDID: DID(rawValue: "did:web:localhost%3A\(port)"),
            serviceEndpoint: URL(string: "http://localhost:\(port)")!, publisherDID: archive.did, feedName: word)
        let index = FeedIndex(rule: FeedIndex.containing(word: word))
        let service = FeedGeneratorService(
            configuration: configuration, index: index,
            verifier: ServiceAuthVerifier(audience: configuration.serviceDID, resolver: resolver))
        return Fixture(
            pds: pds, session: session, did: archive.did, port: port, configuration: configuration,
            resolver: resolver, index: index, service: service, word: word)
    }

    /// Starts the firehose follower and the HTTP server; returns once the server listens.
    func start(_ fixture: Fixture) async throws {
        let follower = FirehoseFollower(service: fixture.pds, resolver: fixture.resolver, index: fixture.index)
        tasks.append(Task { await follower.run(from: 0) })
        let (listening, continuation) = AsyncStream<Int>.makeStream()
        let server = XRPCHTTPServer(router: fixture.service.router, configuration: .init(port: fixture.port))
        tasks.append(
            Task {
                try? await server.run { port in continuation.yield(port) }
                continuation.finish()
            })
        for await _ in listening { break }
    }

    /// GET `path?query` on the feed generator over HTTP: status and JSON body.
    func get(_ fixture: Fixture, _ target: String, token: String? = nil) async throws -> (Int, [String: JSONValue]) {
        var request = URLRequest(url: URL(string: fixture.base.absoluteString + target)!)
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, try JSONValue.parse(data).objectValue ?? [:])
    }

    func skeletonTarget(_ fixture: Fixture, extra: String = "") -> String {
        "/xrpc/app.bsky.feed.getFeedSkeleton?feed=\(fixture.configuration.feedURI.rawValue)\(extra)"
    }

    func testAPostWrittenThroughASessionAppearsInTheSkeleton() async throws {
        let fixture = try await fixture()
        try await start(fixture)
        let client = XRPCClient(agent: fixture.session)
        let created = try await client.createRecord(
            AppBskyFeedPost(text: "hello \(fixture.word) world", createdAt: LexiconDatetime.now()),
            repo: ATIdentifier(fixture.did))
        _ = try await client.createRecord(
            AppBskyFeedPost(text: "not for this feed", createdAt: LexiconDatetime.now()),
            repo: ATIdentifier(fixture.did))
        // From cursor 0 the whole history the PDS keeps is proved first (a CI run has written many commits by now).
        let deadline = ContinuousClock.now + .seconds(90)
        var uris: [String] = []
        while ContinuousClock.now < deadline {
            let (status, body) = try await get(fixture, skeletonTarget(fixture))
            XCTAssertEqual(status, 200)
            uris = body["feed"].flatMap(Self.postURIs) ?? []
            if uris.contains(created.uri.rawValue) { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        XCTAssertEqual(uris, [created.uri.rawValue], "only the post with the word, through the proved firehose")

        // The did:web document and the description.
        let (didStatus, document) = try await get(fixture, "/.well-known/did.json")
        XCTAssertEqual(didStatus, 200)
        XCTAssertEqual(document["id"]?.stringValue, fixture.configuration.serviceDID.rawValue)
        let (_, description) = try await get(fixture, "/xrpc/app.bsky.feed.describeFeedGenerator")
        XCTAssertEqual(description["did"]?.stringValue, fixture.configuration.serviceDID.rawValue)
    }

    func testATokenThePDSMintedIsAcceptedOnceAndOthersAreRefused() async throws {
        let fixture = try await fixture()
        try await start(fixture)
        let token = try await fixture.tokens.token(
            for: fixture.configuration.serviceDID, method: Self.skeleton)
        let (accepted, _) = try await get(fixture, skeletonTarget(fixture), token: token)
        XCTAssertEqual(accepted, 200)
        try await expectRefusal(fixture, token: token, "JwtReplayed")

        // A client's typed calls through ServiceAuthAgent: a fresh token for each, so none is a replay.
        let feeds = XRPCClient(
            agent: ServiceAuthAgent(
                session: fixture.session, audience: fixture.configuration.serviceDID,
                agent: URLSessionAgent(serviceURL: fixture.base)))
        for _ in 0..<2 {
            let page = try await feeds.app.bsky.feed.getFeedSkeleton(feed: fixture.configuration.feedURI, limit: 5)
            XCTAssertNil(page.cursor)
        }

        let otherAudience = try await fixture.tokens.token(for: "did:web:localhost%3A1", method: Self.skeleton)
        try await expectRefusal(fixture, token: otherAudience, "BadJwtAudience")

        let otherMethod = try await fixture.tokens.token(
            for: fixture.configuration.serviceDID, method: "app.bsky.feed.describeFeedGenerator")
        try await expectRefusal(fixture, token: otherMethod, "BadJwtLexiconMethod")

        let fresh = try await fixture.tokens.token(
            for: fixture.configuration.serviceDID, method: Self.skeleton)
        try await expectRefusal(fixture, token: Self.forged(fresh), "BadJwtSignature")
    }

    func testAnExpiredTokenIsRefused() async throws {
        let fixture = try await fixture()
        // The PDS will not mint an expired token: the verifier's clock runs two minutes ahead instead.
        let later = FeedGeneratorService(
            configuration: fixture.configuration, index: fixture.index,
            verifier: ServiceAuthVerifier(
                audience: fixture.configuration.serviceDID, resolver: fixture.resolver,
                now: { Date().addingTimeInterval(120) }))
        let token = try await fixture.tokens.token(
            for: fixture.configuration.serviceDID, method: Self.skeleton)
        let response = await later.router.respond(to: request(fixture, token: token))
        try assertRefusal(response, "JwtExpired")
    }

    func testATokenSignedByARotatedOutKeyIsRefused() async throws {
        let fixture = try await fixture()
        // The account's document now names another key (that of a new account of the PDS); the token
        // is signed by the old one. The verifier looks once more, uncached, then refuses.
        var create = URLRequest(url: fixture.pds.appendingPathComponent("xrpc/com.atproto.server.createAccount"))
        create.httpMethod = "POST"
        create.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let handle = "rotated\(UInt32.random(in: 0...UInt32.max)).test"
        create.httpBody = JSONValue.object(["handle": .string(handle), "password": .string("pw-\(handle)")])
            .serialized()
        let (data, _) = try await URLSession.shared.data(for: create)
        let created = try XCTUnwrap(
            try JSONValue.parse(data).objectValue?["didDoc"], "createAccount answered no didDoc")
        let otherKey = try XCTUnwrap(try DIDDocument(json: created).signingKey()).multikey
        let rotated = RotatedKeyResolver(wrapping: fixture.resolver, did: fixture.did, multikey: otherKey)
        let service = FeedGeneratorService(
            configuration: fixture.configuration, index: fixture.index,
            verifier: ServiceAuthVerifier(audience: fixture.configuration.serviceDID, resolver: rotated))
        let token = try await fixture.tokens.token(
            for: fixture.configuration.serviceDID, method: Self.skeleton)
        let response = await service.router.respond(to: request(fixture, token: token))
        try assertRefusal(response, "BadJwtSignature")
        let invalidations = await rotated.invalidations
        XCTAssertEqual(invalidations, 1, "one fresh look at the document before refusing")
    }

    func testBadParametersAre400NamingThem() async throws {
        let fixture = try await fixture()
        try await start(fixture)
        let cases = [
            (skeletonTarget(fixture, extra: "&limit=500"), "limit"),
            (skeletonTarget(fixture, extra: "&limit=ten"), "limit"),
            ("/xrpc/app.bsky.feed.getFeedSkeleton?limit=5", "feed"),
            ("/xrpc/app.bsky.feed.getFeedSkeleton?feed=not-a-uri", "feed"),
        ]
        for (target, name) in cases {
            let (status, body) = try await get(fixture, target)
            XCTAssertEqual(status, 400, target)
            XCTAssertEqual(body["error"]?.stringValue, "InvalidRequest", target)
            XCTAssertEqual(body["message"]?.stringValue?.hasPrefix(name + ":"), true, "\(target): \(body)")
        }
        let (status, body) = try await get(
            fixture, "/xrpc/app.bsky.feed.getFeedSkeleton?feed=at://did:plc:x/app.bsky.feed.generator/y")
        XCTAssertEqual(status, 400)
        XCTAssertEqual(body["error"]?.stringValue, "UnknownFeed")
    }

    // MARK: Helpers

    func request(_ fixture: Fixture, token: String) -> XRPCServerRequest {
        XRPCServerRequest(
            method: "GET", target: skeletonTarget(fixture), headers: ["Authorization": "Bearer \(token)"])
    }

    func expectRefusal(_ fixture: Fixture, token: String, _ name: String, line: UInt = #line) async throws {
        let (status, body) = try await get(fixture, skeletonTarget(fixture), token: token)
        XCTAssertEqual(status, 401, line: line)
        XCTAssertEqual(body["error"]?.stringValue, name, "\(body)", line: line)
    }

    func assertRefusal(_ response: XRPCServerResponse, _ name: String, line: UInt = #line) throws {
        XCTAssertEqual(response.status, 401, line: line)
        let body = try JSONValue.parse(response.body).objectValue
        XCTAssertEqual(body?["error"]?.stringValue, name, line: line)
    }

    static func postURIs(_ feed: JSONValue) -> [String]? {
        guard case .array(let items) = feed else { return nil }
        return items.compactMap { $0.objectValue?["post"]?.stringValue }
    }

    /// The token with one claim changed (`iat` moved a second), its signature kept.
    static func forged(_ token: String) throws -> String {
        let parts = token.split(separator: ".").map(String.init)
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try XCTUnwrap(Data(base64Encoded: payload))
        guard case .object(var claims) = try JSONValue.parse(data), case .integer(let iat)? = claims["iat"] else {
            throw XCTSkip("the token has no integer iat")
        }
        claims["iat"] = .integer(iat - 1)
        let encoded = JSONValue.object(claims).serialized().base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return [parts[0], encoded, parts[2]].joined(separator: ".")
    }

    /// A loopback port free at the time of asking.
    static func freePort() throws -> Int {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw XCTSkip("no socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw XCTSkip("could not bind a loopback port") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A resolver whose answer for one DID names another `#atproto` key: that account's key rotated.
actor RotatedKeyResolver: IdentityResolver {
    let wrapped: any IdentityResolver
    let did: DID
    let multikey: String
    private(set) var invalidations = 0

    init(wrapping wrapped: any IdentityResolver, did: DID, multikey: String) {
        self.wrapped = wrapped
        self.did = did
        self.multikey = multikey
    }

    func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        let document = try await wrapped.resolveDID(did)
        guard did == self.did else { return document }
        return DIDDocument(
            id: did, alsoKnownAs: document.alsoKnownAs,
            verificationMethods: [
                .init(
                    id: did.rawValue + "#atproto", type: "Multikey", controller: did.rawValue,
                    publicKeyMultibase: multikey)
            ], services: document.services)
    }

    func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        try await wrapped.resolveHandle(handle)
    }

    func invalidate(did: DID) async {
        if did == self.did { invalidations += 1 }
        await wrapped.invalidate(did: did)
    }
}
