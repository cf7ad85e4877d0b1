import AtprotoLexicons
import Foundation

/// A client of a Jetstream service: its v2 `network.bsky.jetstream.subscribeEvents` stream or its
/// legacy v1 `/subscribe`.
///
/// ```swift
/// let jetstream = JetstreamClient(service: URL(string: "wss://jetstream.example.com")!)
/// let filter = JetstreamFilter(collections: ["app.bsky.feed.post"], kinds: [.commit])
/// for try await message in try jetstream.subscribe(filter, after: savedCursor) {
///     guard let event = message.event else { continue }
///     // handle it, then persist event.cursor
/// }
/// ```
///
/// Not supported: zstd compression (v1 `compress`, v2 `zstdDictionary`), v1's `options_update`.
public struct JetstreamClient: Sendable {
    /// The service (`https://`, `http://`, `wss://` or `ws://`, with a host).
    public var service: URL
    /// Which endpoint to read.
    public var version: JetstreamEndpoint
    /// Opens the WebSocket connections. Its message bound (`maximumMessageSize`) bounds a frame,
    /// and its queue bound (`maximumQueuedMessages` of `POSIXWebSocketTransport`) what is read ahead
    /// of a slow app: nothing else is buffered, so a slow app holds the socket back.
    public var transport: any XRPCWebSocketTransport
    /// Whether and how a dropped connection (or a `ConsumerTooSlow` drop) is opened again from the
    /// last cursor delivered; `nil` ends the stream when the connection ends.
    public var reconnectPolicy: XRPCReconnectPolicy?
    /// The record types commits are decoded into (default: the SDK's standard record types).
    public var recordTypes: LexiconRecordTypes
    /// Extra query parameters for the endpoint (not the filter's or the cursor: those are the
    /// client's). A parameter of the other version or a compression request is refused.
    public var extraQueryItems: [URLQueryItem]
    /// Header fields sent with each upgrade request.
    public var headers: HTTPHeaderFields

    /// Creates a client.
    public init(
        service: URL, version: JetstreamEndpoint = .v2,
        transport: any XRPCWebSocketTransport = XRPCPlatformWebSocketTransport(),
        reconnectPolicy: XRPCReconnectPolicy? = .default, recordTypes: LexiconRecordTypes = .bluesky,
        extraQueryItems: [URLQueryItem] = [], headers: HTTPHeaderFields = [:]
    ) {
        self.service = service
        self.version = version
        self.transport = transport
        self.reconnectPolicy = reconnectPolicy
        self.recordTypes = recordTypes
        self.extraQueryItems = extraQueryItems
        self.headers = headers
    }

    /// The events `filter` selects, from the event after `cursor` (a ``JetstreamEvent/cursor``
    /// persisted earlier; `nil`: from the live tip). On v2, a cursor of at least 10^15 is a time in
    /// unix microseconds instead: the stream starts at the first event witnessed at or after it.
    ///
    /// The filter and the parameters are checked here, before anything connects. The server sends
    /// again the event at `cursor` (its cursor is inclusive); the stream skips it and every event it
    /// has delivered, so a reconnection repeats nothing and misses nothing the server still keeps.
    ///
    /// - Throws: ``JetstreamError`` with ``JetstreamError/Code/invalidFilter``,
    ///   ``JetstreamError/Code/wrongEndpoint``, ``JetstreamError/Code/unsupported`` or
    ///   ``JetstreamError/Code/invalidService``.
    public func subscribe(_ filter: JetstreamFilter = .all, after cursor: Int? = nil) throws(JetstreamError)
        -> JetstreamStream
    {
        try filter.check(for: version)
        try version.check(extraQueryItems: extraQueryItems)
        if let cursor, cursor < 0 {
            throw JetstreamError(.invalidFilter, parameter: "cursor", message: "\(cursor) is negative")
        }
        guard var components = URLComponents(url: service, resolvingAgainstBaseURL: true), components.host != nil
        else { throw JetstreamError(.invalidService, message: "\(service) has no host") }
        switch components.scheme?.lowercased() {
        case "https", "wss": components.scheme = "wss"
        case "http", "ws": components.scheme = "ws"
        default: throw JetstreamError(.invalidService, message: "\(service) is not an http(s) or ws(s) URL")
        }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.path =
            path + (version == .v2 ? "/xrpc/" + NetworkBskyJetstreamSubscribeEvents.nsid.rawValue : "/subscribe")
        let items = filter.queryItems(for: version) + extraQueryItems
        components.queryItems = items.isEmpty ? nil : items
        guard let url = components.url else {
            throw JetstreamError(.invalidService, message: "no URL can be made of \(service)")
        }
        return JetstreamStream(client: self, url: url, after: cursor)
    }
}

/// The messages of a Jetstream subscription, as an `AsyncSequence`.
///
/// Nothing connects until iteration starts; each iterator opens its own connection and reads one
/// frame per message asked for (nothing is read ahead beyond the transport's bounded queue). It
/// ends normally when the task is cancelled, or when the server closes and there is no reconnect
/// policy; with ``JetstreamError`` otherwise.
public struct JetstreamStream: AsyncSequence, Sendable {
    public typealias Element = JetstreamMessage
    public typealias Failure = JetstreamError

    /// The URL of the first connection, the filter as its query (the cursor is added per connection).
    public let url: URL
    let client: JetstreamClient
    /// The cursor to resume after.
    let after: Int?

    init(client: JetstreamClient, url: URL, after: Int?) {
        self.client = client
        self.url = url
        self.after = after
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(state: JetstreamIteratorState(client: client, url: url, after: after))
    }

    /// Reads messages, reconnecting as the policy allows.
    public struct Iterator: AsyncIteratorProtocol, Sendable {
        let state: JetstreamIteratorState

        public mutating func next() async throws(JetstreamError) -> JetstreamMessage? {
            try await state.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(JetstreamError)
            -> JetstreamMessage?
        {
            try await state.next()
        }
    }
}
