import AppBskyLexicons
import ComAtprotoLexicons
import Foundation

/// A post just written, with its gates.
public struct BlueskyPublishedPost: Sendable, Hashable {
    /// The post's reference: its AT URI and CID (for a reply to it, a quote, a like).
    public var strongRef: ComAtprotoRepoStrongRef
    /// The record as written.
    public var record: AppBskyFeedPost
    /// The threadgate's URI, when the draft had a ``BlueskyPostDraft/replyGate``.
    public var threadgate: ATURI?
    /// The postgate's URI, when the draft had a ``BlueskyPostDraft/quoteGate``.
    public var postgate: ATURI?
}

extension XRPCClient {
    /// Publishes `draft` as a post of `repo`, the signed-in account, in one call:
    ///
    /// 1. The draft is checked against the lexicons (``BlueskyPostDraft/problems()``, then the records it
    ///    makes, with the generated validator): nothing is sent when anything is refused.
    /// 2. Images and the card's thumbnail are uploaded as blobs (`com.atproto.repo.uploadBlob`).
    /// 3. The post, its threadgate and its postgate are written in one `com.atproto.repo.applyWrites`
    ///    under one new TID key, as the lexicons require: all or none, so a gated post never exists
    ///    ungated, not even for a moment.
    ///
    /// - Throws: ``BlueskyComposeError``: ``BlueskyComposeError/invalidDraft(_:)`` before sending,
    ///   ``BlueskyComposeError/uploadRefused(attachment:_:)`` or ``BlueskyComposeError/writeRefused(_:)``
    ///   when the server refuses, ``BlueskyComposeError/notSent(stage:underlying:)`` without an answer,
    ///   ``BlueskyComposeError/writtenWithoutReference(_:underlying:)`` when the post was written but its
    ///   CID could not be learnt (the answer had no result and reading the post back failed).
    public func publishPost(_ draft: BlueskyPostDraft, repo: DID) async throws(BlueskyComposeError)
        -> BlueskyPublishedPost
    {
        var problems = draft.problems()
        guard problems.isEmpty else { throw .invalidDraft(problems) }
        let createdAt = draft.createdAt ?? LexiconDatetime.now()
        let rkey = RecordKey(rawValue: TID.next().rawValue)
        let uri = ATURI(rawValue: "at://\(repo.rawValue)/\(AppBskyFeedPost.collection)/\(rkey.rawValue)")
        var gates: [RecordWrite] = []
        var threadgate: AppBskyFeedThreadgate?
        var postgate: AppBskyFeedPostgate?
        if let gate = draft.replyGate {
            threadgate = AppBskyFeedThreadgate(post: uri, createdAt: createdAt, allow: gate.allowItems)
        }
        if let gate = draft.quoteGate {
            postgate = AppBskyFeedPostgate(
                post: uri, createdAt: createdAt,
                embeddingRules: gate.disableQuotes ? [.appBskyFeedPostgateDisableRule(.init())] : [])
        }
        // Everything but the blobs is checked before the first upload.
        problems += Self.validation(of: draft.record(createdAt: createdAt, media: nil))
        if let threadgate {
            problems += Self.validation(of: threadgate)
            gates.append(.create(threadgate, rkey: rkey))
        }
        if let postgate {
            problems += Self.validation(of: postgate)
            gates.append(.create(postgate, rkey: rkey))
        }
        guard problems.isEmpty else { throw .invalidDraft(problems) }

        let media = try await uploadMedia(of: draft)
        let post = draft.record(createdAt: createdAt, media: media)
        problems += Self.validation(of: post)
        guard problems.isEmpty else { throw .invalidDraft(problems) }

        let output: ComAtprotoRepoApplyWrites.Output
        do throws(XRPCCallError) {
            output = try await applyWrites(
                [.create(post, rkey: rkey)] + gates, repo: ATIdentifier(rawValue: repo.rawValue))
        } catch {
            if error.serverError != nil { throw .writeRefused(error) }
            throw .notSent(stage: "com.atproto.repo.applyWrites", underlying: error)
        }
        let strongRef: ComAtprotoRepoStrongRef
        if case .comAtprotoRepoApplyWritesCreateResult(let created)? = output.results?.first {
            strongRef = ComAtprotoRepoStrongRef(uri: created.uri, cid: created.cid)
        } else {
            // `results` is optional in the lexicon: a server that leaves it out wrote the post all the
            // same, whose CID is then read back.
            strongRef = try await readBack(uri: uri, repo: repo, rkey: rkey)
        }
        return BlueskyPublishedPost(
            strongRef: strongRef, record: post,
            threadgate: threadgate.map { _ in Self.uri(repo, AppBskyFeedThreadgate.collection, rkey) },
            postgate: postgate.map { _ in Self.uri(repo, AppBskyFeedPostgate.collection, rkey) })
    }

    /// The reference of the post just written at `rkey`, read from the repository.
    private func readBack(uri: ATURI, repo: DID, rkey: RecordKey) async throws(BlueskyComposeError)
        -> ComAtprotoRepoStrongRef
    {
        do {
            let output = try await com.atproto.repo.getRecord(
                repo: ATIdentifier(rawValue: repo.rawValue), collection: AppBskyFeedPost.collection,
                rkey: rkey)
            guard let cid = output.cid else {
                throw LexiconDecodingError(
                    .missingField, path: ["cid"], message: "the getRecord answer has no CID for the post")
            }
            return ComAtprotoRepoStrongRef(uri: output.uri, cid: cid)
        } catch {
            throw .writtenWithoutReference(uri, underlying: error)
        }
    }

    /// Uploads the draft's images or card thumbnail and returns the media embed.
    private func uploadMedia(of draft: BlueskyPostDraft) async throws(BlueskyComposeError)
        -> AppBskyEmbedRecordWithMedia.Media?
    {
        if let media = try await uploadGalleryOrVideo(of: draft) { return media }
        if !draft.images.isEmpty {
            var images: [AppBskyEmbedImages.Image] = []
            for (index, image) in draft.images.enumerated() {
                let blob = try await upload(image.data, mimeType: image.mimeType, attachment: "image \(index + 1)")
                images.append(AppBskyEmbedImages.Image(image: blob, alt: image.alt, aspectRatio: image.aspectRatio))
            }
            return .appBskyEmbedImages(AppBskyEmbedImages(images: images))
        }
        guard let card = draft.external else { return nil }
        var thumb: LexiconBlob?
        if let thumbnail = card.thumbnail {
            thumb = try await upload(thumbnail.data, mimeType: thumbnail.mimeType, attachment: "thumbnail")
        }
        let external = AppBskyEmbedExternal.External(
            uri: card.uri, title: card.title, description: card.description,
            associatedRefs: card.associatedRefs.isEmpty ? nil : card.associatedRefs, thumb: thumb)
        return .appBskyEmbedExternal(AppBskyEmbedExternal(external: external))
    }

    func upload(_ data: Data, mimeType: String, attachment: String) async throws(BlueskyComposeError) -> LexiconBlob {
        do throws(XRPCCallError) {
            return try await uploadBlob(data, mimeType: mimeType)
        } catch {
            if error.serverError != nil { throw .uploadRefused(attachment: attachment, error) }
            throw .notSent(stage: "uploading \(attachment)", underlying: error)
        }
    }

    private static func validation(of record: some LexiconRecord & LexiconValidatable) -> [BlueskyDraftProblem] {
        do {
            try record.validate()
            return []
        } catch {
            return [.invalidRecord(collection: type(of: record).collection, error)]
        }
    }

    private static func uri(_ repo: DID, _ collection: NSID, _ rkey: RecordKey) -> ATURI {
        ATURI(rawValue: "at://\(repo.rawValue)/\(collection.rawValue)/\(rkey.rawValue)")
    }
}
