// The Bluesky app's own state (`bskyAppStatePref`): the nudges queued to show, the new-user
// experiences (NUXs) met, and the active progress guide. Each change keeps the item's other fields.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

extension BlueskyPreferences {
    /// The app state (`bskyAppStatePref`); empty when none is stored.
    public var appState: AppBskyActorDefs.BskyAppStatePref {
        lastValid { if case .appBskyActorDefsBskyAppStatePref(let p) = $0 { p } else { nil } }
            ?? AppBskyActorDefs.BskyAppStatePref()
    }

    /// Queues nudges (tokens of modals, tours, highlight dots) to show, each once.
    ///
    /// - Throws: ``BlueskyPreferenceError`` `invalidValue` over the lexicon's limits (1,000 nudges of at
    ///   most 100 bytes); nothing is changed.
    public mutating func queueNudges(_ nudges: [String]) throws(BlueskyPreferenceError) {
        var state = appState
        var queued = state.queuedNudges ?? []
        for nudge in nudges where !queued.contains(nudge) { queued.append(nudge) }
        state.queuedNudges = queued
        try storeAppState(state)
    }

    /// Removes nudges from the queue (shown, or dismissed).
    public mutating func dismissNudges(_ nudges: [String]) throws(BlueskyPreferenceError) {
        var state = appState
        let dismissed = Set(nudges)
        state.queuedNudges = (state.queuedNudges ?? []).filter { !dismissed.contains($0) }
        try storeAppState(state)
    }

    /// Sets the progress guide the user follows, or ends it (`nil`).
    ///
    /// - Throws: ``BlueskyPreferenceError`` `invalidValue` for a guide name over 100 bytes.
    public mutating func setActiveProgressGuide(_ guide: AppBskyActorDefs.BskyAppProgressGuide?)
        throws(BlueskyPreferenceError)
    {
        var state = appState
        state.activeProgressGuide = guide
        try storeAppState(state)
    }

    /// Adds a NUX, or replaces the one with its id.
    ///
    /// - Throws: ``BlueskyPreferenceError`` `invalidValue` over the lexicon's limits (100 NUXs; an id of
    ///   100 bytes, data of 300 graphemes); nothing is changed.
    public mutating func upsertNux(_ nux: AppBskyActorDefs.Nux) throws(BlueskyPreferenceError) {
        var state = appState
        var nuxs = state.nuxs ?? []
        if let index = nuxs.firstIndex(where: { $0.id == nux.id }) {
            nuxs[index] = nux
        } else {
            nuxs.append(nux)
        }
        state.nuxs = nuxs
        try storeAppState(state)
    }

    /// Removes the NUXs with these ids.
    public mutating func removeNuxs(ids: [String]) throws(BlueskyPreferenceError) {
        var state = appState
        let removed = Set(ids)
        state.nuxs = (state.nuxs ?? []).filter { !removed.contains($0.id) }
        try storeAppState(state)
    }

    private mutating func storeAppState(_ state: AppBskyActorDefs.BskyAppStatePref) throws(BlueskyPreferenceError) {
        try replaceChecked(.appBskyActorDefsBskyAppStatePref(state), preference: "bskyAppStatePref") {
            if case .appBskyActorDefsBskyAppStatePref = $0 { true } else { false }
        }
    }
}
