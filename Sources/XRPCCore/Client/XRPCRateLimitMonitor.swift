import Foundation

// @unchecked Sendable: `byService` and `own` are read and written only under `lock`; `handler` is a `let`.
/// The latest `RateLimit-*` figures each service sent, kept by an ``XRPCClient`` from every answer
/// its calls get, successful or refused, so an app can slow down before it is refused.
///
/// Every client has one (``XRPCClient/rateLimits``), shared by its copies (``XRPCClient/proxied(to:)``,
/// ``XRPCClient/withHeader(_:_:)``), so a generated call's result needs no other return type:
///
/// ```swift
/// let timeline = try await client.app.bsky.feed.getTimeline(limit: 50)
/// if let figures = client.rateLimits.latest()?.rateLimit, let left = figures.remaining, left < 10 {
///     // slow down until figures.reset
/// }
/// ```
///
/// To be told of each new reading instead, give the client a monitor with a handler:
/// `client.rateLimits = XRPCRateLimitMonitor { reading in ... }`. The handler runs on the calling task
/// before the call returns; keep it short. Thread-safe.
public final class XRPCRateLimitMonitor: @unchecked Sendable {
    /// One service's figures and the call that brought them.
    public struct Reading: Sendable, Hashable {
        /// The service that answered: `scheme://host:port` (`https://bsky.social:443`).
        public var service: String
        /// The call whose answer carried the figures.
        public var nsid: NSID
        /// The answer's status (429 when refused for the limit).
        public var status: Int
        /// The figures.
        public var rateLimit: XRPCRateLimit
        /// When the answer arrived.
        public var receivedAt: Date

        /// Creates a reading.
        public init(service: String, nsid: NSID, status: Int, rateLimit: XRPCRateLimit, receivedAt: Date) {
            self.service = service
            self.nsid = nsid
            self.status = status
            self.rateLimit = rateLimit
            self.receivedAt = receivedAt
        }
    }

    private let lock = NSLock()
    private var byService: [String: Reading] = [:]
    /// The latest reading from the agent's own service (calls without a `serviceURL`).
    private var own: Reading?
    private let handler: (@Sendable (Reading) -> Void)?

    /// Creates a monitor; `handler`, if given, gets every reading as it arrives.
    public init(handler: (@Sendable (Reading) -> Void)? = nil) { self.handler = handler }

    /// The latest reading from `service` (any URL on it), or from the agent's own service when `nil`;
    /// `nil` when no answer from there carried `RateLimit-*` fields.
    public func latest(for service: URL? = nil) -> Reading? {
        guard let service else { return lock.withLock { own } }
        guard let key = ServiceOrigin(service)?.description else { return nil }
        return lock.withLock { byService[key] }
    }

    /// The latest reading of every service heard from, by service.
    public var all: [Reading] { lock.withLock { byService.values.sorted { $0.service < $1.service } } }

    /// Records the figures of `response`, if it has any; called by ``XRPCClient`` for every answer.
    package func record(_ response: XRPCResponse, of request: XRPCRequest, agent: any XRPCAgent) async {
        guard let figures = response.rateLimit else { return }
        let serviceURL: URL? =
            if let own = request.serviceURL { own } else { await agent.defaultServiceURL() }
        let service = serviceURL.flatMap { ServiceOrigin($0)?.description }
        let reading = Reading(
            service: service ?? "", nsid: request.nsid, status: response.status, rateLimit: figures,
            receivedAt: Date())
        lock.withLock {
            if let service { byService[service] = reading }
            if request.serviceURL == nil { own = reading }
        }
        handler?(reading)
    }
}
