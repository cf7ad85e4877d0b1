import AppBskyLexicons
import AtprotoIdentityResolution
import Foundation
import LoopbackHTTPServer
import XRPCServer

/// A video service on loopback for the tests: the `app.bsky.video` lexicons' multipart upload
/// (`getUploadLimits`, `startUpload`, `uploadPart`, `finishUpload`, `getUploadStatus`,
/// `getJobStatus`, `abortUpload`) served through `XRPCRouter` (parameters and input checked
/// against the lexicons), every call behind `ServiceAuthVerifier`: the JWT's `aud` must be this
/// service's DID, `lxm` the method called, `exp` in the future, its `jti` unused, and its signature
/// the issuer's `#atproto` key, resolved through `resolver` (the shared PDS's `/plc` directory).
///
/// With `pds`, it also serves `uploadVideo` as Bluesky's service does: the whole file in one request,
/// the token for the account's PDS (`did:web:<its host>`) bound to `com.atproto.repo.uploadBlob`, and
/// the `did` query parameter the token's issuer.
///
/// Processing is simulated: a finished upload whose bytes start like an MP4 (`ftyp` at offset 4)
/// becomes a job that answers `JOB_STATE_ENCODING` to ``Configuration/processingPolls`` polls, then
/// `JOB_STATE_COMPLETED` with a blob (a raw CID of the bytes). Nothing is written to a PDS.
public final class VideoServiceStandIn: Sendable {
    /// What the service allows and which faults it injects.
    public struct Configuration: Sendable {
        /// Each part's size (the last one is what is left).
        public var partSize = 64 * 1024
        /// The largest video accepted by `startUpload` (`VideoTooLarge` above).
        public var maxBytes = 300_000_000
        /// `getUploadLimits`' answer, or `nil` to not serve it (501 `MethodNotImplemented`).
        public var limits: AppBskyVideoGetUploadLimits.Output? = .init(
            canUpload: true, remainingDailyBytes: 1 << 30, remainingDailyVideos: 25)
        /// `getJobStatus` answers that say the job is still processing, before it completes.
        public var processingPolls = 2
        /// Part number -> how many times it is refused with 503 `ServiceOverloaded` before it is taken.
        public var partFailures: [Int: Int] = [:]
        /// Part numbers answered 200 but not recorded the first time (so `finishUpload` finds them missing).
        public var partsLost: Set<Int> = []
        /// A `failureCode` the job fails with instead of completing.
        public var jobFailure: String?
        /// Told of each call accepted, after it is recorded (on the server's thread).
        public var observer: (@Sendable (Call) -> Void)?

        /// The defaults: parts of 64 KiB, limits served, two processing polls, no faults.
        public init() {}
    }

    /// A call the service accepted, with the verified token's claims.
    public struct Call: Sendable, Hashable {
        /// The method called.
        public var method: NSID
        /// The token's issuer.
        public var issuer: DID
        /// Its `aud`.
        public var audience: String
        /// Its `lxm`.
        public var boundMethod: NSID?
    }

    /// The service's DID: the `aud` its tokens need.
    public let did: DID
    /// Where it listens.
    public var url: URL { server.baseURL }
    /// The calls accepted so far, in order.
    public var calls: [Call] { store.read { $0.calls } }
    /// Each upload's state (`created`, `finishing`, `completed`, `failed`, `aborted`) by job ID.
    public var uploadStates: [String: String] { store.read { $0.sessions.mapValues(\.state) } }

    private let store: StandInStore
    private let server: LoopbackHTTPServer

    /// Starts the service on a free loopback port.
    public init(
        did: DID = "did:web:video.test", resolver: any IdentityResolver, pds: URL? = nil,
        configuration: Configuration = .init()
    ) throws {
        self.did = did
        let store = StandInStore(StandInState(configuration: configuration))
        self.store = store
        let verifier = ServiceAuthVerifier(audience: did, resolver: resolver)
        var router = XRPCRouter(configuration: .init(maximumBodySize: 16 << 20, validatesOutput: true))
        Self.register(on: &router, verifier: verifier, store: store, limits: configuration.limits)
        if let host = pds?.host {
            let pdsTokens = UploadBlobTokens(
                verifier: ServiceAuthVerifier(audience: DID(rawValue: "did:web:" + host), resolver: resolver))
            router.procedure(AppBskyVideoUploadVideo.self, auth: pdsTokens) { call in
                var query = URLComponents()
                query.percentEncodedQuery = call.request.query
                let account = query.queryItems?.first { $0.name == "did" }?.value
                return try store.withState(.init(call.caller, AppBskyVideoUploadVideo.nsid)) { state in
                    try state.uploadWhole(call.input.data, account: account, by: call.caller.did)
                }
            }
        }
        let routes = router
        server = try LoopbackHTTPServer { request in Self.bridge(request, to: routes) }
    }

    /// Stops listening.
    public func stop() { server.stop() }

    /// Runs the router for one request on the server's connection thread.
    private static func bridge(_ request: LoopbackHTTPServer.Request, to router: XRPCRouter)
        -> LoopbackHTTPServer.Response
    {
        let box = ResponseBox()
        let done = DispatchSemaphore(value: 0)
        let serverRequest = XRPCServerRequest(
            method: request.method, target: request.target, headers: request.headers, body: request.body)
        Task {
            box.response = await router.respond(to: serverRequest)
            done.signal()
        }
        done.wait()
        guard let response = box.response else { return .init(status: 500) }
        return .init(status: response.status, headers: response.headers, body: response.body)
    }

    private static func register(
        on router: inout XRPCRouter, verifier: ServiceAuthVerifier, store: StandInStore,
        limits: AppBskyVideoGetUploadLimits.Output?
    ) {
        if let limits {
            router.query(AppBskyVideoGetUploadLimits.self, auth: verifier) { call in
                store.withState(.init(call.caller, AppBskyVideoGetUploadLimits.nsid)) { _ in limits }
            }
        }
        router.procedure(AppBskyVideoStartUpload.self, auth: verifier) { call in
            try store.withState(.init(call.caller, AppBskyVideoStartUpload.nsid)) { state in
                try state.start(call.input, by: call.caller.did)
            }
        }
        router.procedure(AppBskyVideoUploadPart.self, auth: verifier) { call in
            try store.withState(.init(call.caller, AppBskyVideoUploadPart.nsid)) { state in
                try state.part(
                    call.parameters.partNumber, of: call.parameters.jobId, call.input.data, by: call.caller.did)
            }
        }
        router.procedure(AppBskyVideoFinishUpload.self, auth: verifier) { call in
            try store.withState(.init(call.caller, AppBskyVideoFinishUpload.nsid)) { state in
                try state.finish(call.input.jobId, by: call.caller.did)
            }
        }
        router.query(AppBskyVideoGetUploadStatus.self, auth: verifier) { call in
            try store.withState(.init(call.caller, AppBskyVideoGetUploadStatus.nsid)) { state in
                try state.status(call.parameters.jobId, by: call.caller.did)
            }
        }
        router.query(AppBskyVideoGetJobStatus.self, auth: verifier) { call in
            try store.withState(.init(call.caller, AppBskyVideoGetJobStatus.nsid)) { state in
                try state.job(call.parameters.jobId, by: call.caller.did)
            }
        }
        router.procedure(AppBskyVideoAbortUpload.self, auth: verifier) { call in
            try store.withState(.init(call.caller, AppBskyVideoAbortUpload.nsid)) { state in
                try state.abort(call.input.jobId, by: call.caller.did)
            }
        }
    }
}

extension VideoServiceStandIn.Call {
    init(_ caller: ServiceAuthCaller, _ method: NSID) {
        self.init(method: method, issuer: caller.did, audience: caller.audience, boundMethod: caller.method)
    }
}

/// `uploadVideo`'s tokens: for the account's PDS, bound to `com.atproto.repo.uploadBlob` (the PDS
/// takes the processed video with it), whatever the method called.
private struct UploadBlobTokens: XRPCAuthenticator {
    let verifier: ServiceAuthVerifier

    func authenticate(_ request: XRPCServerRequest, for nsid: NSID) async throws(XRPCServerError) -> ServiceAuthCaller {
        try await verifier.authenticate(request, for: "com.atproto.repo.uploadBlob")
    }
}

// @unchecked Sendable: `state` is read and written under `lock` only.
/// The stand-in's state, shared by its route handlers.
final class StandInStore: @unchecked Sendable {
    private let lock = NSLock()
    private var state: StandInState
    private let observer: (@Sendable (VideoServiceStandIn.Call) -> Void)?

    init(_ state: StandInState) {
        self.state = state
        observer = state.configuration.observer
    }

    /// Runs `body` on the state under the lock, after recording the call.
    func withState<T>(_ call: VideoServiceStandIn.Call, _ body: (inout StandInState) throws -> T) rethrows -> T {
        defer { observer?(call) }
        return try lock.withLock {
            state.calls.append(call)
            return try body(&state)
        }
    }

    /// Reads the state under the lock.
    func read<T>(_ body: (StandInState) -> T) -> T { lock.withLock { body(state) } }
}

// @unchecked Sendable: written once by the task before it signals, read after the wait.
private final class ResponseBox: @unchecked Sendable {
    var response: XRPCServerResponse?
}
