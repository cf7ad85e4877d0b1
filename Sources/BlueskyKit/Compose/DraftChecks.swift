import AppBskyLexicons
import ComAtprotoLexicons

extension BlueskyPostDraft {
    /// What the lexicons refuse in this draft (empty when it can be sent), found without sending
    /// anything: `XRPCClient.publishPost(_:repo:)` checks this first, then the
    /// records it builds with the generated validator.
    public func problems() -> [BlueskyDraftProblem] {
        var problems: [BlueskyDraftProblem] = []
        let length = text.length
        if !length.fitsPost { problems.append(.textTooLong(length)) }
        if length.bytes == 0, images.isEmpty, external == nil, quote == nil, !hasNewMedia { problems.append(.empty) }
        for (index, facet) in text.facets.enumerated() {
            let (start, end) = (facet.index.byteStart, facet.index.byteEnd)
            if start < 0 || start >= end || end > length.bytes {
                problems.append(.facetOutsideText(index: index, byteStart: start, byteEnd: end))
            }
        }
        if images.count > PostLexiconLimits.maxImages { problems.append(.tooManyImages(images.count)) }
        if !images.isEmpty, external != nil { problems.append(.imagesWithExternal) }
        problems += mediaProblems()
        for (index, image) in images.enumerated() {
            problems += Self.blobProblems(
                "image \(index + 1)", bytes: image.data.count, mimeType: image.mimeType,
                maxBytes: PostLexiconLimits.maxImageBytes)
            if let ratio = image.aspectRatio, ratio.width < 1 || ratio.height < 1 {
                problems.append(.invalidAspectRatio(attachment: "image \(index + 1)"))
            }
        }
        if let thumbnail = external?.thumbnail {
            problems += Self.blobProblems(
                "thumbnail", bytes: thumbnail.data.count, mimeType: thumbnail.mimeType,
                maxBytes: PostLexiconLimits.maxThumbnailBytes)
        }
        if languages.count > PostLexiconLimits.maxLanguages { problems.append(.tooManyLanguages(languages.count)) }
        if selfLabels.count > PostLexiconLimits.maxSelfLabels
            || selfLabels.contains(where: { $0.utf8.count > PostLexiconLimits.maxSelfLabelBytes })
        {
            problems.append(.invalidSelfLabels(selfLabels))
        }
        if tags.count > PostLexiconLimits.maxTags
            || tags.contains(where: {
                $0.count > RichTextLimits.tagGraphemes || $0.utf8.count > RichTextLimits.tagBytes
            })
        {
            problems.append(.invalidTags(tags))
        }
        if let gate = replyGate {
            if gate.allow.count > PostLexiconLimits.maxReplyGateRules {
                problems.append(.tooManyReplyGateRules(gate.allow.count))
            }
            if reply != nil { problems.append(.replyGateOnReply) }
        }
        return problems
    }

    static func blobProblems(_ attachment: String, bytes: Int, mimeType: String, maxBytes: Int) -> [BlueskyDraftProblem]
    {
        var problems: [BlueskyDraftProblem] = []
        if !PostLexiconLimits.accepts(mimeType) {
            problems.append(.unacceptedMimeType(attachment: attachment, mimeType: mimeType))
        }
        if bytes > maxBytes { problems.append(.blobTooLarge(attachment: attachment, bytes: bytes, maxBytes: maxBytes)) }
        return problems
    }

    /// The post record, with `media` (the uploaded images or card) as its embed beside the quote.
    func record(createdAt: LexiconDatetime, media: AppBskyEmbedRecordWithMedia.Media?) -> AppBskyFeedPost {
        var embed: AppBskyFeedPost.Embed?
        switch (quote, media) {
        case (let quote?, let media?):
            embed = .appBskyEmbedRecordWithMedia(.init(record: AppBskyEmbedRecord(record: quote), media: media))
        case (let quote?, nil): embed = .appBskyEmbedRecord(AppBskyEmbedRecord(record: quote))
        case (nil, let media?): embed = media.postEmbed
        case (nil, nil): embed = nil
        }
        let labels =
            selfLabels.isEmpty
            ? nil
            : AppBskyFeedPost.Labels.comAtprotoLabelDefsSelfLabels(.init(values: selfLabels.map { .init(val: $0) }))
        return AppBskyFeedPost(
            text: text.text, createdAt: createdAt, embed: embed, facets: text.recordFacets, labels: labels,
            langs: languages.isEmpty ? nil : languages, reply: reply?.replyRef, tags: tags.isEmpty ? nil : tags)
    }
}
