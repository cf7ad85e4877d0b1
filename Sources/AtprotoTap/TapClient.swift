import AtprotoLexicons
import Foundation

/// A client of a Tap service (indigo's `cmd/tap`) that an app runs beside it: events of the repos Tap
/// tracks, over its `/channel` WebSocket, each acknowledged once handled; repos added and removed.
///
/// ```swift
/// let tap = try TapClient(service: URL(string: "http://localhost:2480")!, adminPassword: secret)
/// try await tap.addRepos(["did:plc:ewvi7nxzyoun6zhxrhs64oiz"])
/// for try await event in tap.events() {
///     if let post = event.record?.record?.as(AppBskyFeedPost.self) { try await store(post) }
///     await tap.ack(event)  // once handled: Tap sends it again later otherwise
/// }
/// ```
///
/// Tap keeps the cursor: it sends an event again each time its retry timeout passes without an
/// acknowledgement (and after it restarts), so an event may arrive more than once. With Tap's acks
/// off (`--disable-acks`), ``ack(_:)`` is not needed (Tap ignores it).
public final class TapClient: Sendable, CustomStringConvertible, CustomReflectable {
    /// The service (`http://`, `https://`, `ws://` or `wss://`, with a host): Tap's address.
    public let service: URL
    /// The `/channel` URL the event streams open.
    public let channelURL: URL
    /// Opens the `/channel` connections. Its message bound (`maximumMessageSize`) bounds a frame, and
    /// its queue bound (`maximumQueuedMessages` of `POSIXWebSocketTransport`) what is read ahead of a
    /// slow app: nothing else is buffered, so a slow app holds the socket back.
    public let webSocketTransport: any XRPCWebSocketTransport
    /// Sends the `/repos/add` and `/repos/remove` requests.
    public let httpTransport: any HTTPTransport
    /// Whether and how a dropped connection is opened again; `nil` ends the stream when the
    /// connection ends.
    public let reconnectPolicy: XRPCReconnectPolicy?
    /// The record types record events are decoded into (default: the SDK's standard record types).
    public let recordTypes: LexiconRecordTypes
    /// Header fields sent with each request and upgrade request, besides the admin authorization.
    public let headers: HTTPHeaderFields
    /// `Authorization: Basic` of `admin` and the admin password, when there is one.
    let authorization: String?
    /// The service as an http(s) URL without a trailing `/`, query or fragment.
    let httpBase: URL
    let acknowledgements = TapAcknowledgements()

    /// Creates a client of the Tap at `service`.
    ///
    /// - Parameters:
    ///   - service: Tap's address (``service``).
    ///   - adminPassword: Tap's `TAP_ADMIN_PASSWORD`, sent with every request as HTTP Basic
    ///     authentication with the user name `admin`; `nil` when Tap has none. No property shows it.
    ///   - webSocketTransport: Opens the `/channel` connections (``webSocketTransport``).
    ///   - httpTransport: Sends the repos requests (``httpTransport``).
    ///   - reconnectPolicy: How a dropped connection is opened again (``reconnectPolicy``).
    ///   - recordTypes: The record types records are decoded into (``recordTypes``).
    ///   - headers: Header fields for every request (``headers``).
    /// - Throws: ``TapError`` with ``TapError/Code/invalidService`` when `service` is not an
    ///   http(s) or ws(s) URL with a host.
    public init(
        service: URL, adminPassword: String? = nil,
        webSocketTransport: any XRPCWebSocketTransport = XRPCPlatformWebSocketTransport(),
        httpTransport: any HTTPTransport = URLSessionTransport(), reconnectPolicy: XRPCReconnectPolicy? = .default,
        recordTypes: LexiconRecordTypes = .bluesky, headers: HTTPHeaderFields = [:]
    ) throws(TapError) {
        guard var components = URLComponents(url: service, resolvingAgainstBaseURL: true), components.host != nil
        else { throw TapError(.invalidService, message: "\(service) has no host") }
        switch components.scheme?.lowercased() {
        case "https", "wss": components.scheme = "wss"
        case "http", "ws": components.scheme = "ws"
        default: throw TapError(.invalidService, message: "\(service) is not an http(s) or ws(s) URL")
        }
        while components.path.hasSuffix("/") { components.path.removeLast() }
        components.query = nil
        components.fragment = nil
        let base = components
        components.path += "/channel"
        var http = base
        http.scheme = base.scheme == "wss" ? "https" : "http"
        guard let channel = components.url, let httpBase = http.url else {
            throw TapError(.invalidService, message: "no channel URL can be made of \(service)")
        }
        self.service = service
        self.channelURL = channel
        self.httpBase = httpBase
        self.webSocketTransport = webSocketTransport
        self.httpTransport = httpTransport
        self.reconnectPolicy = reconnectPolicy
        self.recordTypes = recordTypes
        self.headers = headers
        self.authorization = adminPassword.map { "Basic " + Data("admin:\($0)".utf8).base64EncodedString() }
    }

    /// The service, and whether an admin password is set (never the password).
    public var description: String {
        "TapClient(\(service)\(authorization == nil ? "" : ", admin password set"))"
    }

    /// A mirror with the service and the channel URL only: `dump` never reaches the admin password.
    public var customMirror: Mirror {
        Mirror(self, children: ["service": service, "channelURL": channelURL], displayStyle: .class)
    }

    /// The events Tap sends, as they arrive. Nothing connects until iteration starts; each iterator
    /// opens a connection of its own (Tap shares its events among all of them).
    public func events() -> TapEventStream { TapEventStream(client: self) }

    /// Tells Tap that `event` is handled, so it never sends it again (and sends the repo's next live
    /// event). An ack that cannot be sent now (no connection open, or it broke) is kept and sent when
    /// a stream of this client connects again; Tap sends again any event whose ack it never saw.
    public func ack(_ event: TapEvent) async { await ack(id: event.id) }

    /// Acknowledges the event with Tap's id `id` (``TapEvent/id``, or ``TapError/eventID`` to drop an
    /// event that does not read).
    public func ack(id: Int) async { await acknowledgements.send(id) }

    /// Starts tracking the repos `dids`: Tap backfills each from its PDS, then follows it live.
    /// Repos already tracked are left as they are.
    ///
    /// - Throws: ``TapError`` with ``TapError/Code/unauthorized``, ``TapError/Code/rejected`` (another
    ///   error status) or ``TapError/Code/connectionFailed`` (no answer).
    public func addRepos(_ dids: [DID]) async throws(TapError) { try await post("/repos/add", dids) }

    /// Stops tracking the repos `dids`; Tap forgets their state (events already queued are still sent).
    ///
    /// - Throws: ``TapError``, as ``addRepos(_:)`` does.
    public func removeRepos(_ dids: [DID]) async throws(TapError) { try await post("/repos/remove", dids) }

    private func post(_ path: String, _ dids: [DID]) async throws(TapError) {
        guard !dids.isEmpty else { return }
        guard let url = URL(string: httpBase.absoluteString + path) else {
            throw TapError(.invalidService, message: "no URL can be made of \(service) and \(path)")
        }
        var fields = headers
        fields["Content-Type"] = "application/json"
        if let authorization { fields["Authorization"] = authorization }
        let body = JSONValue.object(["dids": .array(dids.map { .string($0.rawValue) })]).serialized()
        let request = HTTPTransportRequest(
            method: "POST", url: url, headers: fields, body: body, maximumResponseSize: 64 << 10,
            timeout: .seconds(60))
        let response: HTTPTransportResponse
        do {
            response = try await httpTransport.send(request)
        } catch {
            throw TapError(.connectionFailed, message: "POST \(path): \(error)", underlying: error)
        }
        guard !(200..<300).contains(response.status) else { return }
        var detail = String(decoding: response.body.prefix(500), as: UTF8.self)
        if case .object(let answer)? = try? JSONValue.parse(response.body), case .string(let text)? = answer["message"]
        {
            detail = text
        }
        let code: TapError.Code = response.status == 401 ? .unauthorized : .rejected
        throw TapError(code, status: response.status, message: "POST \(path): \(detail)")
    }
}
