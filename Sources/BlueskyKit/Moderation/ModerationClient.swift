// The network side of moderation: labelers' own label definitions from `app.bsky.labeler.getServices`,
// and the labelers requests ask for (`atproto-accept-labelers`). The preferences are read and written
// by BlueskyPreferences.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

extension XRPCClient {
    /// The custom label definitions of `labelers`, by labeler, from their service records.
    ///
    /// A labeler the service does not know, or whose view comes back without its policies, is missing
    /// from the result (its custom values are then ignored); definitions that fail their lexicon's
    /// validation are skipped. Duplicate DIDs are asked for once, in batches of 20 per call (the
    /// lexicon sets no maximum; a long query string is what servers refuse).
    public func labelDefinitions(for labelers: [DID]) async throws -> [DID: [LabelDefinition]] {
        var result: [DID: [LabelDefinition]] = [:]
        var seen = Set<DID>()
        let unique = labelers.filter { seen.insert($0).inserted }
        var start = 0
        while start < unique.count {
            let batch = Array(unique[start..<min(start + 20, unique.count)])
            start += batch.count
            let output = try await app.bsky.labeler.getServices(dids: batch, detailed: true)
            for case .appBskyLabelerDefsLabelerViewDetailed(let view) in output.views {
                result[view.creator.did] = LabelDefinition.definitions(of: view)
            }
        }
        return result
    }

    /// A copy whose calls ask for the labels of `appLabelers` (allowed to take content down) and of the
    /// labelers in `preferences`.
    public func acceptingLabelers(of preferences: ModerationPreferences, appLabelers: [DID]) -> XRPCClient {
        acceptingLabelers(preferences.acceptedLabelers(appLabelers: appLabelers))
    }
}

extension LabelDefinition {
    /// The custom definitions a labeler publishes, interpreted; definitions that fail their lexicon's
    /// validation are skipped.
    public static func definitions(of labeler: AppBskyLabelerDefs.LabelerViewDetailed) -> [LabelDefinition] {
        (labeler.policies.labelValueDefinitions ?? []).compactMap { definition in
            guard (try? definition.validate()) != nil else { return nil }
            return LabelDefinition(definition, definedBy: labeler.creator.did)
        }
    }
}
