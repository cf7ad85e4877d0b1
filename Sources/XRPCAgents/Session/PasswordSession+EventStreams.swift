import Foundation
import XRPCCore

extension PasswordSession {
    /// Where calls go: the account's PDS once logged in (``PasswordSessionArchive/callServiceURL``), else
    /// the login service. Event streams of a client over this session connect there by default.
    public func defaultServiceURL() async -> URL? {
        archive?.callServiceURL ?? service
    }

    /// The access token as `Authorization` for a stream on one of the session's hosts (the login
    /// service or the account's PDS, `ws`/`wss` read as `http`/`https`); nothing for another host,
    /// or while logged out.
    ///
    /// After an upgrade refused as unauthorized, the tokens are refreshed first (with the same
    /// fallback to a new login as a call), so the stream's next attempt carries the new token.
    public func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
        guard let current = archive, let origin = ServiceOrigin.httpEquivalent(of: url) else { return [:] }
        let own = [service, current.service, current.pdsEndpoint].compactMap { $0.flatMap(ServiceOrigin.init) }
        guard own.contains(origin) else { return [:] }
        guard rejection != nil else { return ["Authorization": current.accessToken.bearer] }
        let refreshed = try await refresh()
        return ["Authorization": refreshed.accessToken.bearer]
    }
}
