// The network side of moderation: the user's preferences read and written through
// `app.bsky.actor.getPreferences`/`putPreferences`, labelers' own label definitions from
// `app.bsky.labeler.getServices`, and the labelers requests ask for (`atproto-accept-labelers`).

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

extension XRPCClient {
    /// The signed-in user's preferences.
    public func blueskyPreferences() async throws -> BlueskyPreferences {
        BlueskyPreferences(try await app.bsky.actor.getPreferences().preferences)
    }

    /// Replaces the signed-in user's preferences with `preferences`: every item, unknown and
    /// undecodable ones included, exactly as read.
    ///
    /// The items are sent without the client's input validation, so an item this SDK's lexicons reject
    /// (one another client wrote, or one of a newer lexicon version) goes back unchanged instead of
    /// failing the whole write or being dropped; the server has the last word and answers an item it
    /// refuses with an error.
    public func putBlueskyPreferences(_ preferences: BlueskyPreferences) async throws {
        var unchecked = self
        unchecked.validatesInput = false
        _ = try await unchecked.app.bsky.actor.putPreferences(preferences: preferences.items)
    }

    /// Reads the preferences, applies `change`, writes them back and returns what was written.
    ///
    /// Edits of one account are serialized in the process: an update waits until the account's
    /// previous one has written, so any number of overlapping updates (from several clients over one
    /// session, or several sessions of the account) each keep their change. The account is the one the
    /// client's agent acts as (a `PasswordSession`, an `OAuthSession`, or this package's wrappers of
    /// one); updates through an agent that cannot name its account are serialized with every other
    /// such agent's. Another process or device writing between the read and the write still wins
    /// (the endpoint has no compare-and-swap). Throws `CancellationError` when the task is cancelled
    /// while it waits; `change` then never runs.
    ///
    /// `change` runs on the caller's actor (`isolation`, which callers leave to its default), so a
    /// closure of main-actor code (an app with MainActor default isolation, a view model) can read and
    /// change that code's state: it is never sent to another isolation domain.
    @discardableResult
    public func updateBlueskyPreferences(
        isolation: isolated (any Actor)? = #isolation, _ change: (inout BlueskyPreferences) throws -> Void
    ) async throws -> BlueskyPreferences {
        // Entered and left here rather than through a closure, so that `change` runs in this
        // function's own isolation, the caller's.
        let lanes = AccountEditLanes.shared
        let lane = await AccountEditLanes.key(of: agent)
        try await lanes.enter(lane)
        defer { lanes.leave(lane) }
        var preferences = try await blueskyPreferences()
        try change(&preferences)
        try await putBlueskyPreferences(preferences)
        return preferences
    }

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
