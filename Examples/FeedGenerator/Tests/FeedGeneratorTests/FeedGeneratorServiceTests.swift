import AtprotoIdentityResolution
import AtprotoLexicons
import FeedGenerator
import Foundation
import XCTest
import XRPCServer

/// The service in process, without a PDS: its description, its did:web document, its feed, and the
/// auth it asks for.
final class FeedGeneratorServiceTests: XCTestCase {
    /// A resolver that knows nobody: no token can pass, which these tests do not need.
    struct NobodyResolver: IdentityResolver {
        func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
            throw IdentityError(.didNotFound, identifier: did.rawValue, message: "nobody here")
        }
        func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
            throw IdentityError(.handleNotFound, identifier: handle.rawValue, message: "nobody here")
        }
        func invalidate(did: DID) async {}
    }

    func service(requiresAuth: Bool = false) async -> FeedGeneratorService {
        let configuration = FeedGeneratorService.Configuration(
            serviceDID: "did:web:feeds.example.com", serviceEndpoint: URL(string: "https://feeds.example.com")!,
            publisherDID: "did:plc:publisher", feedName: "swift", requiresAuth: requiresAuth)
        let index = FeedIndex(rule: FeedIndex.containing(word: "swift"))
        await index.consider(
            AppBskyFeedPost(text: "swift", createdAt: LexiconDatetime.now()),
            at: "at://did:plc:author/app.bsky.feed.post/3abc")
        return FeedGeneratorService(
            configuration: configuration, index: index,
            verifier: ServiceAuthVerifier(audience: configuration.serviceDID, resolver: NobodyResolver()))
    }

    func get(_ service: FeedGeneratorService, _ target: String, headers: HTTPHeaderFields = [:]) async throws
        -> (Int, [String: JSONValue])
    {
        let response = await service.router.respond(
            to: XRPCServerRequest(method: "GET", target: target, headers: headers))
        return (response.status, try JSONValue.parse(response.body).objectValue ?? [:])
    }

    func testItDescribesItsFeedAndServesItsDocument() async throws {
        let service = await service()
        let (status, description) = try await get(service, "/xrpc/app.bsky.feed.describeFeedGenerator")
        XCTAssertEqual(status, 200)
        let output = try AppBskyFeedDescribeFeedGenerator.Output(lexiconJSON: .object(description))
        XCTAssertEqual(output.did, "did:web:feeds.example.com")
        XCTAssertEqual(output.feeds.map(\.uri.rawValue), ["at://did:plc:publisher/app.bsky.feed.generator/swift"])
        let (documentStatus, document) = try await get(service, "/.well-known/did.json")
        XCTAssertEqual(documentStatus, 200)
        let parsed = try DIDDocument(json: .object(document))
        XCTAssertEqual(parsed.id, "did:web:feeds.example.com")
        XCTAssertEqual(parsed.services.first?.endpointURL?.absoluteString, "https://feeds.example.com")
        XCTAssertEqual(parsed.services.first?.type, "BskyFeedGenerator")
    }

    func testTheSkeletonIsServedAnonymouslyUnlessAuthIsRequired() async throws {
        let target = "/xrpc/app.bsky.feed.getFeedSkeleton?feed=at://did:plc:publisher/app.bsky.feed.generator/swift"
        let (status, body) = try await get(await service(), target)
        XCTAssertEqual(status, 200)
        let skeleton = try AppBskyFeedGetFeedSkeleton.Output(lexiconJSON: .object(body))
        XCTAssertEqual(skeleton.feed.map(\.post.rawValue), ["at://did:plc:author/app.bsky.feed.post/3abc"])
        let (refused, error) = try await get(await service(requiresAuth: true), target)
        XCTAssertEqual(refused, 401)
        XCTAssertEqual(error["error"]?.stringValue, "AuthenticationRequired")
        // A token that is sent must hold even where auth is optional.
        let (bad, badError) = try await get(await service(), target, headers: ["Authorization": "Bearer x.y.z"])
        XCTAssertEqual(bad, 401)
        XCTAssertEqual(badError["error"]?.stringValue, "BadJwt")
    }

    func testAnotherFeedIsUnknownAndAForeignCursorIsRefused() async throws {
        let service = await service()
        let (status, body) = try await get(
            service, "/xrpc/app.bsky.feed.getFeedSkeleton?feed=at://did:plc:publisher/app.bsky.feed.generator/other")
        XCTAssertEqual(status, 400)
        XCTAssertEqual(body["error"]?.stringValue, "UnknownFeed")
        let (cursorStatus, cursorBody) = try await get(
            service,
            "/xrpc/app.bsky.feed.getFeedSkeleton?feed=at://did:plc:publisher/app.bsky.feed.generator/swift&cursor=zz")
        XCTAssertEqual(cursorStatus, 400)
        XCTAssertEqual(cursorBody["message"]?.stringValue?.hasPrefix("cursor:"), true)
    }
}
