import AtprotoData
import Foundation
import XRPCWebSockets

/// Where and how ``XRPCClient`` opens event streams (subscriptions).
///
/// ```swift
/// var client = XRPCClient(agent: agent)
/// client.eventStreams.serviceURL = URL(string: "wss://bsky.network")
/// client.eventStreams.reconnectPolicy = .default
/// for try await message in client.com.atproto.sync.subscribeRepos(cursor: saved) { ... }
/// ```
public struct XRPCEventStreamOptions: Sendable {
    /// The service that streams, such as a relay or a PDS (`https://`, `http://`, `wss://` or
    /// `ws://`; HTTP schemes become their WebSocket ones). When `nil`, the service the client's agent
    /// names (``XRPCAgent/defaultServiceURL()``: a transport's service, a session's PDS).
    public var serviceURL: URL?
    /// Opens the WebSocket connections.
    public var transport: any XRPCWebSocketTransport
    /// Whether and how a dropped connection is opened again, resuming after the last `seq` seen;
    /// `nil` ends the stream when the connection ends.
    public var reconnectPolicy: XRPCReconnectPolicy?
    /// Header fields sent with each upgrade request, over those the agent gives
    /// (``XRPCAgent/eventStreamHeaders(for:rejection:)``, such as a session's `Authorization`).
    public var headers: HTTPHeaderFields
    /// Checks every message frame before it is decoded and delivered: `AtprotoVerification`'s
    /// `FirehoseVerifier` proves each `#commit` of `subscribeRepos` with it. `nil` checks nothing.
    public var frameCheck: (any XRPCEventFrameCheck)?

    /// Creates options.
    public init(
        serviceURL: URL? = nil,
        transport: any XRPCWebSocketTransport = XRPCPlatformWebSocketTransport(),
        reconnectPolicy: XRPCReconnectPolicy? = nil,
        headers: HTTPHeaderFields = [:]
    ) {
        self.serviceURL = serviceURL
        self.transport = transport
        self.reconnectPolicy = reconnectPolicy
        self.headers = headers
    }
}

/// Checks the message frames of an event stream before they are delivered.
///
/// Return `true` to deliver the message, `false` to skip it (only after telling the app: a check must
/// never drop a frame silently), or throw to end the stream with
/// ``XRPCEventStreamError/Code/frameCheckFailed``.
public protocol XRPCEventFrameCheck: Sendable {
    /// Checks one message: its type (`#commit`, or a full `nsid#name`) and its body, as DAG-CBOR.
    func check(type: String, body: [String: AtprotoDataModelValue], nsid: NSID) async throws -> Bool
}

/// When an event stream opens its connection again after it dropped, and how long it waits.
///
/// A reconnection resumes with `cursor` set to the `seq` of the last message delivered, so no
/// message is lost or repeated when the server still has it. Error frames (`FutureCursor`...),
/// malformed frames and refused subscriptions (HTTP 4xx other than 408 and 429) end the stream
/// whatever the policy.
public struct XRPCReconnectPolicy: Sendable, Hashable {
    /// How many connection attempts in a row may fail (no message received in between) before the
    /// stream ends with ``XRPCEventStreamError/Code/connectionFailed``.
    public var maximumAttempts: Int
    /// The wait before the first reconnection; it doubles for each next one.
    public var initialDelay: Duration
    /// The longest wait.
    public var maximumDelay: Duration

    /// Creates a policy.
    public init(
        maximumAttempts: Int = 10, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30)
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// Ten attempts in a row, from 0.5 s up to 30 s apart.
    public static var `default`: XRPCReconnectPolicy { XRPCReconnectPolicy() }

    /// The wait before attempt `attempt` (1 for the first reconnection): exponential backoff, with
    /// `random` (in `0..<1`) spreading it between half and all of it.
    func delay(beforeAttempt attempt: Int, random: Double) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, attempt) where delay < maximumDelay { delay *= 2 }
        delay = min(delay, maximumDelay)
        return delay / 2 + (delay / 2) * min(max(random, 0), 1)
    }
}
