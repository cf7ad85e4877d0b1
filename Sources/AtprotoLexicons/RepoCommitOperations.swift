// Hand-written: reading the records of firehose commits into this module's generated types, with
// AtprotoRepository's types.

import AtprotoRepository

extension ComAtprotoSyncSubscribeRepos.Commit {
    /// Each operation of the commit (action, path, CID) with the record it wrote, read from the
    /// commit's `blocks`: decoded into its type when `types` knows its collection, kept as an
    /// `LexiconUnknownValue` otherwise.
    ///
    /// ```swift
    /// for try await message in client.com.atproto.sync.subscribeRepos() {
    ///     guard case .comAtprotoSyncSubscribeReposCommit(let commit) = message else { continue }
    ///     for operation in try commit.operations(decoding: [AppBskyFeedPost.self]) {
    ///         if let post = operation.record?.as(AppBskyFeedPost.self) { print(post.text) }
    ///     }
    /// }
    /// ```
    ///
    /// - Throws: `AtprotoBinaryDecodingError` for a malformed CAR file, a block that does not hash to
    ///   its CID, an op whose CID is not a valid CID, or a record block that is not DAG-CBOR.
    public func operations(decoding types: LexiconRecordTypes = .bluesky) throws(AtprotoBinaryDecodingError)
        -> [RepoOperation]
    {
        let blocks = try RepoCommitBlocks(car: self.blocks.data)
        var operations: [RepoOperation] = []
        operations.reserveCapacity(ops.count)
        for op in ops {
            var cid: CID?
            if let link = op.cid {
                do {
                    cid = try CID(link)
                } catch {
                    throw AtprotoBinaryDecodingError(
                        error.code, offset: error.offset, message: "op \(op.path): cid: \(error.message)")
                }
            }
            operations.append(
                try blocks.operation(
                    action: RepoOperation.Action(rawValue: op.action.rawValue), path: op.path, cid: cid, types: types))
        }
        return operations
    }

    /// The operations, with records of the collections of `types` decoded into them.
    public func operations(decoding types: [any LexiconRecord.Type]) throws(AtprotoBinaryDecodingError)
        -> [RepoOperation]
    {
        try operations(decoding: LexiconRecordTypes(types))
    }
}

extension LexiconRecordTypes {
    /// Every `app.bsky` and `chat.bsky` record type of the SDK, as lexgen lists them for each module
    /// (`AppBskyLexiconsSchemas.recordTypes`, `ChatBskyLexiconsSchemas.recordTypes`); built once, on
    /// first use.
    public static let bluesky = LexiconRecordTypes(
        AppBskyLexiconsSchemas.recordTypes + ChatBskyLexiconsSchemas.recordTypes)
}
