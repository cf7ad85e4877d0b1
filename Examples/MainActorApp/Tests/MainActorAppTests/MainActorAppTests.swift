// The app's round trip, from a module with MainActor default isolation too: off the main actor (a
// `nonisolated` test calling the synchronous work, a detached task) and on it (the screen's state).

import BlueskyKit
import Foundation
import Testing
import XRPCTesting

@testable import MainActorApp

/// A post as a feed shows it, with a mention and a tag in its text (`nonisolated`: read off the main actor too).
nonisolated private let postViewJSON = Data(
    """
    {"uri": "at://did:plc:alice/app.bsky.feed.post/3kpost", "indexedAt": "2026-01-01T00:00:00.000Z",
     "cid": "bafyreiclp443lavogvhj3d2ob2cxbfuscni2k5jk7bebjzg7khl3esabwq",
     "author": {"did": "did:plc:alice", "handle": "alice.test"},
     "record": {"$type": "app.bsky.feed.post", "text": "hi @bob.test #swift", "createdAt": "2026-01-01T00:00:00.000Z",
       "facets": [
         {"index": {"byteStart": 3, "byteEnd": 12},
          "features": [{"$type": "app.bsky.richtext.facet#mention", "did": "did:plc:bob"}]},
         {"index": {"byteStart": 13, "byteEnd": 19},
          "features": [{"$type": "app.bsky.richtext.facet#tag", "tag": "swift"}]}]}}
    """.utf8)

@Test nonisolated func theGeneratedAndBlueskyKitTypesRoundTripOffTheMainActor() throws {
    let result = try roundTrip(postViewJSON: postViewJSON)
    #expect(result.noteReadBack == result.note)
    #expect(result.viewReadBack == result.view)
    #expect(result.note.text == "A note about hi @bob.test #swift")
    #expect(result.note.subject.uri == "at://did:plc:alice/app.bsky.feed.post/3kpost")
    #expect(result.viewReadBack.post.author.handle == "alice.test")
    guard case .appBskyEmbedExternal(let embed) = result.noteReadBack.embed else {
        Issue.record("the embed read back as \(String(describing: result.noteReadBack.embed)), not a link")
        return
    }
    #expect(embed.external.title == "Notes")
    #expect(result.post.text == "hi @bob.test #swift")
    #expect(result.segments == ["hi ", "@bob.test", " ", "#swift"])
    #expect(result.draftText.facets.count == 2)  // the tag and the link
    #expect(!result.filtered)
}

@Test func theSameRoundTripInADetachedTaskGivesTheSameValues() async throws {
    let detached = try await roundTripInBackground(postViewJSON: postViewJSON)
    let direct = try roundTrip(postViewJSON: postViewJSON)
    #expect(detached == direct)
}

@Test func theScreenShowsNotesAndMutesWordsOnTheMainActor() async throws {
    let agent = StubAgent { request in
        let body = request.nsid == "app.bsky.actor.getPreferences" ? #"{"preferences": []}"# : "{}"
        return XRPCResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }
    let screen = NotesScreen(client: XRPCClient(agent: agent))
    try await screen.show(postViewJSON: postViewJSON)
    #expect(screen.notes.map(\.post.author.handle) == ["alice.test"])
    try await screen.mute("#spoilers")
    #expect(screen.mutedWords == ["#spoilers"])
    #expect(agent.requests.map(\.nsid) == ["app.bsky.actor.getPreferences", "app.bsky.actor.putPreferences"])
}
