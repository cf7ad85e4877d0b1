// An app module with MainActor default isolation: everything here without a `nonisolated` of its own
// is main-actor isolated, as in an Xcode 26 app target. The LexiconGen plugin generates this module's
// lexicons (com.example.mainactor.*) into it; the generated types are `nonisolated`, so they are used
// off the main actor below exactly as BlueskyKit's are.

import BlueskyKit
import Foundation

/// What one round trip gives back, compared by the tests.
nonisolated struct RoundTrip: Sendable, Equatable {
    /// The note built from the post, as written and as read back.
    var note: ComExampleMainactorNote
    var noteReadBack: ComExampleMainactorNote
    /// The note's view (the note, and the post as a feed shows it), as written and as read back.
    var view: ComExampleMainactorDefs.NoteView
    var viewReadBack: ComExampleMainactorDefs.NoteView
    /// The post decoded from its JSON, and the post drafted from the note's text, as BlueskyKit makes them.
    var post: AppBskyFeedPost
    var draftText: RichText
    /// The post's text cut into segments by its facets, as a timeline shows it.
    var segments: [String]
    /// Whether moderation hides the post from a list.
    var filtered: Bool
}

/// Decodes a post, builds a note about it and its view, validates and encodes them and reads them
/// back; drafts a quote post with BlueskyKit. Synchronous and `nonisolated`: what a background decode
/// does, never on the main actor.
nonisolated func roundTrip(postViewJSON: Data) throws -> RoundTrip {
    let postView = try AppBskyFeedDefs.PostView(jsonData: postViewJSON)
    let post = try postView.postRecord()
    let subject = ComAtprotoRepoStrongRef(uri: postView.uri, cid: postView.cid)
    let link = AppBskyEmbedExternal.External(
        uri: "https://example.com/notes", title: "Notes", description: "Where the notes are")
    let note = ComExampleMainactorNote(
        text: "A note about \(post.text)", subject: subject,
        createdAt: LexiconDatetime(rawValue: "2026-01-01T00:00:00.000Z"),
        embed: .appBskyEmbedExternal(AppBskyEmbedExternal(external: link)))
    try note.validate()
    let noteReadBack = try ComExampleMainactorNote(jsonData: note.jsonData())

    let view = ComExampleMainactorDefs.NoteView(
        uri: "at://did:plc:notes/com.example.mainactor.note/3kabc", note: note, post: postView)
    try view.validate()
    let viewReadBack = try LexiconDecoder().decode(
        ComExampleMainactorDefs.NoteView.self, from: LexiconEncoder().encode(view))

    var draft = BlueskyPostDraft(text: RichText.detectingLinksAndTags("Read this #notes https://example.com"))
    draft.quote = subject
    draft.reply = try BlueskyReplyTarget(postView)
    guard draft.problems().isEmpty else { throw RoundTripError(problems: draft.problems().map { "\($0)" }) }

    let options = ModerationOptions(viewer: "did:plc:viewer", preferences: ModerationPreferences())
    return RoundTrip(
        note: note, noteReadBack: noteReadBack, view: view, viewReadBack: viewReadBack, post: post,
        draftText: draft.text, segments: RichText(post: post).segments().map(\.text),
        filtered: options.decide(post: postView).ui(.contentList).filter)
}

/// The same work from main-actor code, in a detached task (off the main actor).
func roundTripInBackground(postViewJSON: Data) async throws -> RoundTrip {
    try await Task.detached { try roundTrip(postViewJSON: postViewJSON) }.value
}

/// A draft the app refused.
nonisolated struct RoundTripError: Error {
    var problems: [String]
}

/// Main-actor state, as a view model holds it: the notes shown, and the words the user muted. Its
/// methods call the network and BlueskyKit from the main actor.
final class NotesScreen {
    private(set) var notes: [ComExampleMainactorDefs.NoteView] = []
    private(set) var mutedWords: [String] = []
    let client: XRPCClient

    init(client: XRPCClient) {
        self.client = client
    }

    /// Decodes in the background, then shows the note on the main actor.
    func show(postViewJSON: Data) async throws {
        let result = try await roundTripInBackground(postViewJSON: postViewJSON)
        notes.append(result.viewReadBack)
    }

    /// Mutes a word: the change runs on the main actor, so it updates this screen's state too.
    func mute(_ word: String) async throws {
        try await client.updateBlueskyPreferences { preferences in
            let muted = AppBskyActorDefs.MutedWord(value: word, targets: ["content", "tag"])
            if preferences.addMutedWord(muted) != nil { mutedWords.append(word) }
        }
    }
}
