import AtprotoLexicons
import Foundation
import Jetstream

/// Takes the posts of a Jetstream service (v2 `network.bsky.jetstream.subscribeEvents`) into the
/// index: only `app.bsky.feed.post` commits are asked for, each created post considered, each
/// deleted one removed. Jetstream's records are not proved (use ``FirehoseFollower`` for that); it
/// costs a fraction of the firehose for a feed that needs one collection.
///
/// With a checkpoint file, the cursor and the index are saved together at most once a second and
/// when the follower stops, and a restart resumes from them: nothing missed, nothing counted twice.
public struct JetstreamFollower: Sendable {
    /// The Jetstream client (its service, version, transport and reconnect policy).
    public let client: JetstreamClient
    /// Where the selected posts go.
    public let index: FeedIndex
    /// Where the cursor and the index are saved, or `nil` to keep nothing.
    public let checkpoint: FeedCheckpointFile?
    /// Told of each stream failure (a ``JetstreamError``) before the follower connects again, and of a
    /// checkpoint that could not be saved.
    public let onError: @Sendable (any Error) async -> Void

    /// A follower of `client`'s stream into `index`.
    public init(
        client: JetstreamClient, index: FeedIndex, checkpoint: FeedCheckpointFile? = nil,
        onError: @escaping @Sendable (any Error) async -> Void = { _ in }
    ) {
        self.client = client
        self.index = index
        self.checkpoint = checkpoint
        self.onError = onError
    }

    /// Follows the stream until the task is cancelled: from the checkpoint when there is one (the
    /// index restored from it), else from `cursor` (`nil`: the live tip; on v2 a time in unix
    /// microseconds also works), reconnecting after failures with a growing pause (1 s to 30 s).
    ///
    /// - Throws: when the checkpoint file exists but cannot be read, before anything is followed.
    public func run(from cursor: Int? = nil) async throws {
        var cursor = cursor
        if let saved = try checkpoint?.load() {
            await index.restore(saved.index)
            cursor = saved.cursor
        }
        let filter = JetstreamFilter(collections: [AppBskyFeedPost.collection.rawValue], kinds: [.commit])
        var pause = Duration.seconds(1)
        var lastSave = ContinuousClock.now
        var savedCursor = cursor
        while !Task.isCancelled {
            do {
                for try await message in try client.subscribe(filter, after: cursor) {
                    guard let event = message.event else { continue }
                    if let commit = event.commit { await apply(commit, of: event.did) }
                    cursor = event.cursor
                    pause = .seconds(1)
                    if ContinuousClock.now - lastSave >= .seconds(1) {
                        await saveNow(cursor)
                        savedCursor = cursor
                        lastSave = .now
                    }
                }
            } catch {
                if Task.isCancelled { break }
                await onError(error)
            }
            if cursor != savedCursor {
                await saveNow(cursor)
                savedCursor = cursor
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(30))
        }
        if cursor != savedCursor { await saveNow(cursor) }
    }

    /// Adds a created post, removes a deleted one.
    func apply(_ commit: JetstreamCommit, of did: DID) async {
        let uri = commit.uri(did: did)
        switch commit.operation {
        case .create:
            if let post = commit.record?.as(AppBskyFeedPost.self) { await index.consider(post, at: uri) }
        case .delete:
            await index.remove(uri)
        default:
            break
        }
    }

    /// Saves the cursor with the index; a failure is told to `onError` (the next save tries again).
    func saveNow(_ cursor: Int?) async {
        guard let checkpoint else { return }
        do {
            try checkpoint.save(FeedCheckpoint(cursor: cursor, index: await index.state))
        } catch {
            await onError(error)
        }
    }
}
