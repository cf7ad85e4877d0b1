import AtprotoData
import Foundation
import XRPCCore

/// Serves XRPC methods from their generated endpoint types: request in, response out, no HTTP server.
///
/// Register a handler per endpoint type; the router answers as the XRPC spec says: `GET` for queries
/// and subscriptions, `POST` for procedures (405 otherwise), parameters and input decoded into the
/// endpoint's types and checked against its lexicon (400 `InvalidRequest` naming what is wrong),
/// 501 `MethodNotImplemented` for an NSID without a handler, every error as a
/// `{"error", "message"}` JSON body.
///
/// ```swift
/// var router = XRPCRouter()
/// router.query(AppBskyFeedGetFeedSkeleton.self, auth: verifier.optional) { call in
///     AppBskyFeedGetFeedSkeleton.Output(feed: try await store.page(call.parameters))
/// }
/// let response = await router.respond(to: request)
/// ```
///
/// An HTTP server adapter (the `XRPCHummingbird` trait's, or an app's own) turns its requests into
/// ``XRPCServerRequest`` values and calls ``handle(_:)``.
public struct XRPCRouter: Sendable {
    /// Limits and checks, the same for every route.
    public struct Configuration: Sendable {
        /// The largest request body taken, in bytes (413 `PayloadTooLarge` above). Default 1 MiB.
        public var maximumBodySize: Int
        /// The longest query string taken, in bytes. Default 8 KiB.
        public var maximumQueryLength: Int
        /// The most query parameters taken. Default 100.
        public var maximumQueryItems: Int
        /// Whether parameters and input are checked against the lexicon's constraints (ranges,
        /// lengths, formats, required fields). Default on.
        public var validatesRequests: Bool
        /// Whether each handler's output is checked against the lexicon before it is sent (a
        /// violation answers 500: the server's bug, not the caller's). Default off.
        public var validatesOutput: Bool
        /// Where the router reports handler failures (500s), with the request as its redacted
        /// description; `nil` reports nothing. Never given credentials.
        public var log: (@Sendable (String) -> Void)?
        /// The longest a query or procedure may take to answer (503 `NotEnoughResources` past it, the
        /// handler cancelled), or `nil` for no limit (the default: a deadline costs two tasks and a
        /// timer per call). Subscriptions are not timed.
        public var handlerTimeout: Duration?

        /// The defaults.
        public init(
            maximumBodySize: Int = 1 << 20, maximumQueryLength: Int = 8 << 10, maximumQueryItems: Int = 100,
            validatesRequests: Bool = true, validatesOutput: Bool = false, log: (@Sendable (String) -> Void)? = nil,
            handlerTimeout: Duration? = nil
        ) {
            self.handlerTimeout = handlerTimeout
            self.maximumBodySize = maximumBodySize
            self.maximumQueryLength = maximumQueryLength
            self.maximumQueryItems = maximumQueryItems
            self.validatesRequests = validatesRequests
            self.validatesOutput = validatesOutput
            self.log = log
        }
    }

    /// The limits and checks.
    public let configuration: Configuration
    var routes: [String: Route] = [:]
    var bareRoutes: [BareRouteKey: @Sendable (XRPCServerRequest) async -> XRPCServerResponse] = [:]
    /// Whether a plain route's path starts with `/xrpc/` (so that XRPC paths must be looked up there first).
    var bareRoutesUnderPrefix = false

    /// A router with no routes.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The NSIDs served, sorted.
    public var nsids: [NSID] { routes.keys.sorted().map(NSID.init(rawValue:)) }

    /// Answers one request. A subscription's request gets a 400 here (its handler is not run): an
    /// adapter that serves WebSockets calls ``handle(_:)`` for upgrade requests instead.
    public func respond(to request: XRPCServerRequest) async -> XRPCServerResponse {
        switch await dispatch(request, upgrading: false) {
        case .response(let response): return response
        case .eventStream:
            return XRPCServerResponse(error: XRPCServerError(.internalServerError, message: "unexpected stream"))
        }
    }

    /// Answers one request: a response, or for a subscription the stream of frames to send over the
    /// WebSocket the adapter opens (parameters and credentials checked first: a refusal is a response).
    public func handle(_ request: XRPCServerRequest) async -> XRPCServerReply {
        await dispatch(request, upgrading: true)
    }

    private func dispatch(_ request: XRPCServerRequest, upgrading: Bool) async -> XRPCServerReply {
        let method = Self.uppercased(request.method)
        let isXRPC = request.path.hasPrefix(Self.prefix)
        // A plain route answers an XRPC path only when one was registered under /xrpc/: otherwise the
        // lookup (hashing the whole path) is skipped for every XRPC call.
        if !isXRPC || bareRoutesUnderPrefix,
            let bare = bareRoutes[BareRouteKey(method: method == "HEAD" ? "GET" : method, path: request.path)]
        {
            return .response(await bare(request))
        }
        guard isXRPC else {
            return .response(
                XRPCServerResponse(error: XRPCServerError(.notFound, message: "not an XRPC path: use /xrpc/<nsid>")))
        }
        // The prefix is six ASCII bytes: dropping bytes, not characters, skips grapheme breaking.
        let name = String(Substring(request.path.utf8.dropFirst(Self.prefix.utf8.count)))
        guard let route = routes[name] else {
            let shown = name.count > 256 ? String(name.prefix(256)) + "..." : name
            return .response(
                XRPCServerResponse(
                    error: XRPCServerError(.methodNotImplemented, message: "method not implemented: \(shown)")))
        }
        guard method == route.kind.httpMethod else {
            return .response(
                XRPCServerResponse(
                    error: XRPCServerError(
                        .invalidRequest, status: 405, headers: ["allow": route.kind.httpMethod],
                        message: "\(name) is a \(route.kind.rawValue): use \(route.kind.httpMethod), not \(method)")))
        }
        if route.kind == .subscription && !upgrading {
            return .response(
                XRPCServerResponse(
                    error: XRPCServerError(
                        .invalidRequest, message: "\(name) is a subscription: open it as a WebSocket")))
        }
        guard request.query.utf8.count <= configuration.maximumQueryLength else {
            return .response(
                XRPCServerResponse(
                    error: XRPCServerError(
                        .invalidRequest,
                        message: "the query string is longer than \(configuration.maximumQueryLength) bytes")))
        }
        guard request.body.count <= configuration.maximumBodySize else {
            return .response(
                XRPCServerResponse(
                    error: XRPCServerError(
                        .payloadTooLarge, message: "the body is larger than \(configuration.maximumBodySize) bytes")))
        }
        return await route.serve(request)
    }

    /// Whether `path` (`/xrpc/<nsid>`) is a method this router serves, of any kind.
    public func servesMethod(at path: String) -> Bool {
        guard path.hasPrefix(Self.prefix) else { return false }
        return routes[String(path.dropFirst(Self.prefix.count))] != nil
    }

    /// Whether `path` is a subscription this router serves: what an adapter asks before it runs a
    /// WebSocket upgrade request through ``handle(_:)``.
    public func servesSubscription(at path: String) -> Bool {
        guard path.hasPrefix(Self.prefix) else { return false }
        return routes[String(path.dropFirst(Self.prefix.count))]?.kind == .subscription
    }

    /// Serves a path outside `/xrpc/` (`/.well-known/did.json`, a health check) with a plain
    /// handler; `GET` routes answer `HEAD` too.
    public mutating func route(
        _ method: String, _ path: String, handler: @escaping @Sendable (XRPCServerRequest) async -> XRPCServerResponse
    ) {
        bareRoutes[BareRouteKey(method: method.uppercased(), path: path)] = handler
        if path.hasPrefix(Self.prefix) { bareRoutesUnderPrefix = true }
    }

    static let prefix = "/xrpc/"

    /// `method` in upper case; as is, without a copy, when it is ASCII with no lower-case letter (as
    /// methods are sent).
    static func uppercased(_ method: String) -> String {
        method.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
            ? method : method.uppercased()
    }
}

/// What the router answers: a response, or the frames of an event stream.
public enum XRPCServerReply: Sendable {
    /// An HTTP response.
    case response(XRPCServerResponse)
    /// A subscription accepted: send each frame as a binary WebSocket message, then close.
    case eventStream(XRPCEventFrameSequence)
}

/// A method and path of a plain route.
struct BareRouteKey: Hashable, Sendable {
    let method: String
    let path: String
}

/// One registered method.
struct Route: Sendable {
    enum Kind: String, Sendable {
        case query, procedure, subscription

        var httpMethod: String { self == .procedure ? "POST" : "GET" }
    }

    let kind: Kind
    let serve: @Sendable (XRPCServerRequest) async -> XRPCServerReply
}
