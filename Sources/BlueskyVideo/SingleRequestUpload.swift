import Foundation
import XRPCRuntime

/// How a video reaches the service.
public enum BlueskyVideoUploadMethod: Sendable, Hashable {
    /// The multipart upload of the `app.bsky.video` lexicons (`startUpload`, `uploadPart` per part,
    /// `finishUpload`): a failed part is sent again rather than the whole file, and an abandoned
    /// upload is aborted. Each call carries a token for the video service bound to that call.
    case multipart
    /// One `app.bsky.video.uploadVideo` request with the whole file, as Bluesky's own app uploads:
    /// its token names the account's PDS (`did:web:<PDS host>`) as audience and
    /// `com.atproto.repo.uploadBlob` as method, since the service stores the processed video on the
    /// PDS with it, and the query names the account (`did`) and the file (`name`). A failed request
    /// sends the whole file again, as the policy's attempts allow, each time with a new token.
    case singleRequest
}

/// What the single-request upload needs besides the service's client: the session (whose PDS mints
/// the token and whose account is named) and the agent that reaches the service.
struct SingleRequestRoute: Sendable {
    /// The account's agent: a password or OAuth session.
    let session: any XRPCAgent
    /// What sends the calls to the service, without service auth of its own.
    let serviceAgent: any XRPCAgent

    /// How long each token is valid: the time a large file may take to send.
    static let tokenLifetime: TimeInterval = 30 * 60

    /// A client whose one call, `uploadVideo`, carries a fresh token and names the account and `name`.
    func client(name: String) async throws(BlueskyVideoUploadError) -> XRPCClient {
        guard let account = session as? any XRPCAccountAgent, let did = await account.accountDID() else {
            throw BlueskyVideoUploadError(
                .notSent, message: "the single-request upload names the account, and the session has none (signed out?)"
            )
        }
        guard let pds = await session.defaultServiceURL(), let host = pds.host, !host.isEmpty else {
            throw BlueskyVideoUploadError(
                .notSent, message: "the single-request upload needs the session's PDS, and it names none")
        }
        let token: String
        do throws(XRPCCallError) {
            token = try await ServiceAuthTokens(agent: session).token(
                for: DID(rawValue: "did:web:" + host), method: "com.atproto.repo.uploadBlob",
                expiration: Date().addingTimeInterval(Self.tokenLifetime))
        } catch {
            throw VideoUploadRun.failure(error, "getting a token for the upload from the PDS")
        }
        let query = [URLQueryItem(name: "did", value: did.rawValue), URLQueryItem(name: "name", value: name)]
        return XRPCClient(agent: SingleRequestAgent(inner: serviceAgent, token: token, queryItems: query))
    }
}

/// Sends a request with a given token and extra query items: `uploadVideo`'s parameters are not
/// in its lexicon, so the generated call cannot name them.
private struct SingleRequestAgent: XRPCAgent {
    let inner: any XRPCAgent
    let token: String
    let queryItems: [URLQueryItem]

    func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        var request = request
        request.queryItems += queryItems
        request.setHeader("Authorization", "Bearer " + token)
        return try await inner.send(request)
    }

    func defaultServiceURL() async -> URL? { await inner.defaultServiceURL() }

    func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields { [:] }
}

extension VideoUploadRun {
    /// Sends the whole file in one `uploadVideo` request, then polls its job.
    func sendWhole(_ route: SingleRequestRoute, attempt: Int) async throws(BlueskyVideoUploadError) {
        let name = file.name ?? "video.mp4"
        let client = try await route.client(name: name)
        let output: AppBskyVideoUploadVideo.Output
        do throws(XRPCCallError) {
            output = try await client.app.bsky.video.uploadVideo(
                XRPCRawBody(data: file.data, contentType: file.mimeType))
        } catch {
            try await retry(after: error, attempt: attempt, "sending the video") { .starting(attempt: attempt + 1) }
            return
        }
        let jobId = output.jobStatus.jobId
        guard !jobId.isEmpty else {
            throw BlueskyVideoUploadError(.unexpectedAnswer, message: "the upload's answer names no job")
        }
        self.jobId = jobId
        // Nothing to abort: the service has the whole file and the job is its own.
        finished = true
        pending.append(.sent(bytes: file.data.count, totalBytes: file.data.count))
        try take(output.jobStatus, jobId: jobId, poll: 0)
    }
}
