import AtprotoData
import AtprotoSyntax
import Foundation
import XRPCCore

/// Obtains service-auth tokens from the user's PDS (`com.atproto.server.getServiceAuth`) through any
/// agent that signs the user in (a password session, an OAuth session), for calls to services that
/// want one: a feed generator's own endpoints, video upload.
///
/// ```swift
/// let tokens = ServiceAuthTokens(agent: session)
/// let token = try await tokens.token(for: "did:web:feeds.example.com", method: "app.bsky.feed.getFeedSkeleton")
/// request.setHeader("Authorization", "Bearer \(token)")
/// ```
///
/// The token is a credential: it is never logged or put in an error by this type.
public struct ServiceAuthTokens: Sendable {
    /// The agent the PDS call goes through.
    public let agent: any XRPCAgent

    /// The NSID of the PDS method called.
    public static let nsid: NSID = "com.atproto.server.getServiceAuth"

    /// Tokens obtained through `agent`.
    public init(agent: any XRPCAgent) {
        self.agent = agent
    }

    /// A token for `audience` (the service's DID, and its `#serviceID` when given), bound to `method`.
    ///
    /// - Parameters:
    ///   - audience: The service's DID.
    ///   - serviceID: The service's entry in its DID document (`atproto_labeler`), when the token is
    ///     for `did#serviceID` rather than the DID alone.
    ///   - method: The method the token is for (`lxm`); `nil` for a token of any method, which PDSes
    ///     give a minute at most.
    ///   - expiration: When it expires; `nil` lets the PDS choose (60 s). PDSes refuse more than an
    ///     hour ahead, or more than a minute without a method (`BadExpiration`).
    /// - Throws: `XRPCCallError`, as a generated call does: `serverError` when the PDS refuses
    ///   (`BadExpiration`...), `invalidOutput` when its answer has no token, and the agent's failure.
    public func token(
        for audience: DID, serviceID: String? = nil, method: NSID?, expiration: Date? = nil
    ) async throws(XRPCCallError) -> String {
        let aud = serviceID.map { audience.rawValue + "#" + $0 } ?? audience.rawValue
        var items = [URLQueryItem(name: "aud", value: aud)]
        if let expiration {
            items.append(URLQueryItem(name: "exp", value: String(UnixSeconds.of(expiration))))
        }
        if let method { items.append(URLQueryItem(name: "lxm", value: method.rawValue)) }
        let response: XRPCResponse
        do {
            response = try await agent.send(XRPCRequest(method: .get, nsid: Self.nsid, queryItems: items))
        } catch {
            throw XRPCCallError.classifying(error, nsid: Self.nsid, declaredNames: [])
        }
        guard response.isSuccess else {
            throw XRPCCallError.answered(
                XRPCError.fromResponse(response, nsid: Self.nsid), response: response, declaredNames: [])
        }
        let token: String?
        do {
            token = try JSONValue.parse(response.body).objectValue?["token"]?.stringValue
        } catch {
            throw XRPCCallError(
                .invalidOutput, nsid: Self.nsid, status: response.status, response: response,
                message: "the answer is not JSON", underlying: error)
        }
        guard let token, !token.isEmpty else {
            throw XRPCCallError(
                .invalidOutput, nsid: Self.nsid, status: response.status, response: response,
                message: "the answer has no string \"token\"",
                underlying: LexiconDecodingError(.missingField, path: ["token"], message: "missing"))
        }
        return token
    }
}
