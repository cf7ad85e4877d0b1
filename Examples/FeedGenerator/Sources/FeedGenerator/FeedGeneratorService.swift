import AtprotoIdentityResolution
import AtprotoLexicons
import Foundation
import XRPCServer

/// The feed generator's XRPC service: `describeFeedGenerator`, `getFeedSkeleton` (service auth
/// checked: optional, as the lexicon allows, unless ``Configuration/requiresAuth``) and the did:web
/// document at `/.well-known/did.json`.
public struct FeedGeneratorService: Sendable {
    /// Who the service is and what it serves.
    public struct Configuration: Sendable {
        /// The service's DID, `did:web:<host>` (`did:web:localhost%3A8080` in development): the `aud`
        /// of the tokens it accepts.
        public var serviceDID: DID
        /// The public URL of the service, the endpoint of its `#bsky_fg` service entry.
        public var serviceEndpoint: URL
        /// The account that publishes the feed's `app.bsky.feed.generator` record.
        public var publisherDID: DID
        /// The record key of the feed.
        public var feedName: String
        /// Whether `getFeedSkeleton` refuses calls without a token (default false: anonymous calls
        /// get the same feed).
        public var requiresAuth: Bool

        /// A configuration.
        public init(
            serviceDID: DID, serviceEndpoint: URL, publisherDID: DID, feedName: String, requiresAuth: Bool = false
        ) {
            self.serviceDID = serviceDID
            self.serviceEndpoint = serviceEndpoint
            self.publisherDID = publisherDID
            self.feedName = feedName
            self.requiresAuth = requiresAuth
        }

        /// `at://<publisher>/app.bsky.feed.generator/<name>`.
        public var feedURI: ATURI {
            ATURI(rawValue: "at://\(publisherDID.rawValue)/app.bsky.feed.generator/\(feedName)")
        }
    }

    /// Who and what.
    public let configuration: Configuration
    /// The posts served.
    public let index: FeedIndex
    /// The router: hand it to `XRPCHTTPServer`, or call it in process.
    public let router: XRPCRouter

    /// A service over `index`, verifying tokens with `verifier`.
    public init(configuration: Configuration, index: FeedIndex, verifier: ServiceAuthVerifier) {
        self.configuration = configuration
        self.index = index
        var router = XRPCRouter()
        let feedURI = configuration.feedURI
        router.query(AppBskyFeedDescribeFeedGenerator.self) { _ in
            AppBskyFeedDescribeFeedGenerator.Output(did: configuration.serviceDID, feeds: [.init(uri: feedURI)])
        }
        if configuration.requiresAuth {
            router.query(AppBskyFeedGetFeedSkeleton.self, auth: verifier) { call in
                try await Self.skeleton(call.parameters, feed: feedURI, index: index)
            }
        } else {
            router.query(AppBskyFeedGetFeedSkeleton.self, auth: verifier.optional) { call in
                try await Self.skeleton(call.parameters, feed: feedURI, index: index)
            }
        }
        let document = Self.didDocument(configuration)
        router.route("GET", "/.well-known/did.json") { _ in
            XRPCServerResponse(status: 200, headers: ["content-type": "application/json"], body: document)
        }
        self.router = router
    }

    static func skeleton(_ parameters: AppBskyFeedGetFeedSkeleton.Parameters, feed: ATURI, index: FeedIndex)
        async throws -> AppBskyFeedGetFeedSkeleton.Output
    {
        guard parameters.feed == feed else {
            throw XRPCServerError.declared(
                AppBskyFeedGetFeedSkeleton.Error.unknownFeed, message: "this service serves \(feed.rawValue) only")
        }
        let page: (uris: [ATURI], cursor: String?)
        do {
            page = try await index.page(limit: parameters.limit ?? 50, cursor: parameters.cursor)
        } catch {
            throw XRPCServerError(.invalidRequest, message: "cursor: not a cursor this feed gave")
        }
        return AppBskyFeedGetFeedSkeleton.Output(feed: page.uris.map { .init(post: $0) }, cursor: page.cursor)
    }

    /// The did:web document: the service's DID and its `#bsky_fg` endpoint.
    static func didDocument(_ configuration: Configuration) -> Data {
        var endpoint = configuration.serviceEndpoint.absoluteString
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        let document: JSONValue = .object([
            "@context": .array([.string("https://www.w3.org/ns/did/v1")]),
            "id": .string(configuration.serviceDID.rawValue),
            "service": .array([
                .object([
                    "id": .string("#bsky_fg"), "type": .string("BskyFeedGenerator"),
                    "serviceEndpoint": .string(endpoint),
                ])
            ]),
        ])
        return document.serialized()
    }
}
