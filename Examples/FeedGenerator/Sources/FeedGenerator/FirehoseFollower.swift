import AtprotoIdentityResolution
import AtprotoLexicons
import AtprotoVerification
import Foundation
import XRPCRuntime

/// Follows a PDS's (or relay's) `com.atproto.sync.subscribeRepos` through ``FirehoseVerifier``: each
/// commit is proved (signature, MST, sync 1.1 inversion) before its posts reach the index. A commit
/// that does not prove out is reported and skipped, never indexed; a dropped connection resumes
/// after the last sequence number read.
public struct FirehoseFollower: Sendable {
    /// Where the firehose is.
    public let service: URL
    /// Resolves the accounts' signing keys.
    public let resolver: any IdentityResolver
    /// Where the selected posts go.
    public let index: FeedIndex
    /// Told of each commit that fails its proof (the failure names the repository and seq).
    public let onFailure: @Sendable (FirehoseFailure) async -> Void
    /// The WebSocket client, or `nil` for the platform's (on Linux: `ws://` only; `wss://` needs the
    /// trait NIOWebSocketTransport's transport).
    public let transport: (any XRPCWebSocketTransport)?

    /// A follower of `service`'s firehose.
    public init(
        service: URL, resolver: any IdentityResolver, index: FeedIndex, transport: (any XRPCWebSocketTransport)? = nil,
        onFailure: @escaping @Sendable (FirehoseFailure) async -> Void = { _ in }
    ) {
        self.transport = transport
        self.service = service
        self.resolver = resolver
        self.index = index
        self.onFailure = onFailure
    }

    /// Follows the stream from `cursor` until the task is cancelled, reconnecting after failures
    /// with a growing pause (1 s to 30 s).
    public func run(from cursor: Int? = nil) async {
        var cursor = cursor
        var pause = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                try await follow(from: cursor) { seq in
                    cursor = seq
                    pause = .seconds(1)
                }
            } catch is CancellationError {
                return
            } catch {
                // The stream ended or failed: try again after a pause.
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
    }

    /// Follows one connection; `advance` gets each sequence number read.
    func follow(from cursor: Int?, advance: (Int) -> Void) async throws {
        var client = XRPCClient(agent: URLSessionAgent(serviceURL: service))
        client.eventStreams.serviceURL = service
        if let transport { client.eventStreams.transport = transport }
        client.eventStreams.frameCheck = FirehoseVerifier(resolver: resolver, policy: .report(onFailure))
        for try await message in client.com.atproto.sync.subscribeRepos(cursor: cursor) {
            guard case .comAtprotoSyncSubscribeReposCommit(let commit) = message else { continue }
            try await index(commit)
            advance(commit.seq)
        }
    }

    /// Adds the created posts of a proved commit, and removes deleted ones.
    func index(_ commit: ComAtprotoSyncSubscribeRepos.Commit) async throws {
        let blocks = try RepoCommitBlocks(car: commit.blocks.data)
        let types = LexiconRecordTypes([AppBskyFeedPost.self])
        for op in commit.ops where op.path.hasPrefix(AppBskyFeedPost.collection.rawValue + "/") {
            let uri = ATURI(rawValue: "at://\(commit.repo.rawValue)/\(op.path)")
            switch op.action.rawValue {
            case "create":
                let cid = try op.cid.map { try CID($0) }
                let operation = try blocks.operation(action: .create, path: op.path, cid: cid, types: types)
                if let post = operation.record?.as(AppBskyFeedPost.self) { await index.consider(post, at: uri) }
            case "delete":
                await index.remove(uri)
            default:
                break
            }
        }
    }
}
