import Foundation

/// Where a feed generator's stream stopped and what its index held then, saved together so that a
/// restart resumes from the cursor with the index as it was at that cursor: nothing missed, and the
/// events after it applied once (the index also ignores a post it already holds).
public struct FeedCheckpoint: Codable, Sendable {
    /// The stream's cursor (a Jetstream event's `cursor`) of the last event applied to `index`.
    public var cursor: Int?
    /// The index after that event.
    public var index: FeedIndex.State

    /// A checkpoint at `cursor` holding `index`.
    public init(cursor: Int?, index: FeedIndex.State) {
        self.cursor = cursor
        self.index = index
    }
}

/// A ``FeedCheckpoint`` in a file, written whole and atomically (a crash leaves the previous one).
public struct FeedCheckpointFile: Sendable {
    /// The file.
    public let url: URL

    /// The checkpoint file at `url`.
    public init(url: URL) { self.url = url }

    /// The saved checkpoint, or `nil` when there is none yet.
    ///
    /// - Throws: when the file exists but cannot be read or is not a checkpoint (never silently
    ///   started over: that would count the whole history again or miss it).
    public func load() throws -> FeedCheckpoint? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(FeedCheckpoint.self, from: Data(contentsOf: url))
    }

    /// Saves `checkpoint` in place of the previous one.
    public func save(_ checkpoint: FeedCheckpoint) throws {
        try JSONEncoder().encode(checkpoint).write(to: url, options: .atomic)
    }
}
