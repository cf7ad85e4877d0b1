// The preferences read and written through `app.bsky.actor.getPreferences` / `putPreferences`, and
// edited through one lane per account. Read and written as bytes: each item keeps the bytes it was
// read as, and one written back unchanged is sent as those bytes.

import AppBskyLexicons
import ComAtprotoLexicons
import Foundation
import XRPCRuntime

extension XRPCClient {
    /// The signed-in user's preferences.
    ///
    /// Each item is kept with the bytes it was read as: written back unchanged (by
    /// ``putBlueskyPreferences(_:)`` or ``updateBlueskyPreferences(isolation:_:)``), it is sent as those
    /// bytes, so an item of a kind this SDK does not know keeps its key order, numbers and escapes.
    public func blueskyPreferences() async throws -> BlueskyPreferences {
        try await query(PreferencesRead.self, parameters: XRPCNoParameters()).preferences
    }

    /// Replaces the signed-in user's preferences with `preferences`: every item, unknown and
    /// undecodable ones included, exactly as read (an item unchanged since it was read is sent as the
    /// bytes it was read as).
    ///
    /// The items are sent without the client's input validation, so an item this SDK's lexicons reject
    /// (one another client wrote, or one of a newer lexicon version) goes back unchanged instead of
    /// failing the whole write or being dropped; the server has the last word and answers an item it
    /// refuses with an error.
    public func putBlueskyPreferences(_ preferences: BlueskyPreferences) async throws {
        _ = try await procedure(
            PreferencesWrite.self, parameters: XRPCNoParameters(), input: PreferenceList(preferences))
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

    /// The saved feeds, as ``BlueskyPreferences/savedFeeds`` reads them; when they are still read
    /// from the legacy item, they are first written as a `savedFeedsPrefV2` item (through the
    /// account's edit lane), so the ids returned stay.
    public func savedFeeds() async throws -> [AppBskyActorDefs.SavedFeed] {
        let read = try await blueskyPreferences()
        if read.hasSavedFeedsV2 { return read.savedFeeds }
        let written = try await updateBlueskyPreferences { preferences in
            if !preferences.hasSavedFeedsV2 { try preferences.overwriteSavedFeeds(preferences.savedFeeds) }
        }
        return written.savedFeeds
    }
}

/// `getPreferences` read as bytes.
enum PreferencesRead: XRPCQuery {
    typealias Parameters = XRPCNoParameters
    typealias Error = XRPCUndeclaredError
    typealias Output = PreferenceList
    static var nsid: NSID { AppBskyActorGetPreferences.nsid }
}

/// `putPreferences` written as bytes.
enum PreferencesWrite: XRPCProcedure {
    typealias Parameters = XRPCNoParameters
    typealias Error = XRPCUndeclaredError
    typealias Input = PreferenceList
    typealias Output = XRPCEmptyBody
    static var nsid: NSID { AppBskyActorPutPreferences.nsid }
}

/// The body of both: `{"preferences": [...]}`, each item with its bytes.
struct PreferenceList: XRPCBody {
    var preferences: BlueskyPreferences

    init(_ preferences: BlueskyPreferences) {
        self.preferences = preferences
    }

    init(xrpcBody body: Data, contentType: String?) throws {
        let bytes = [UInt8](body)
        // Strict parse first: the spans below are then read from valid JSON.
        guard case .object(let fields) = try JSONValue.parse(bytes), case .array? = fields["preferences"],
            let list = JSONSpans.member("preferences", ofObjectIn: bytes)
        else {
            throw LexiconDecodingError(path: ["preferences"], message: "expected an object with a preferences array")
        }
        var read: [ReadPreferenceItem] = []
        for (index, span) in JSONSpans.elements(ofArrayIn: bytes, span: list).enumerated() {
            let itemBytes = bytes[span]
            do {
                let item = try AppBskyActorDefs.PreferencesItem(lexiconJSON: try JSONValue.parse(itemBytes))
                read.append(ReadPreferenceItem(item: item, bytes: Data(itemBytes)))
            } catch {
                throw LexiconDecodingError(path: ["preferences", "\(index)"], message: "\(error)")
            }
        }
        preferences = BlueskyPreferences(read: read)
    }

    func xrpcBody() throws -> (data: Data, contentType: String)? {
        (preferences.wireBody(), "application/json")
    }
}
