// The Quick start of README.md: sign in, post with a mention and a link, read the timeline, and decide
// what to show of each post; like and unlike the post, follow and unfollow an account, count the unread
// notifications. `swift run QuickStart` with ATPROTO_SERVICE (default https://bsky.social),
// ATPROTO_HANDLE and ATPROTO_PASSWORD (an app password) in the environment, and ATPROTO_FOLLOW (the
// handle to follow and unfollow, default bsky.app).
import BlueskyKit
import Foundation

let environment = ProcessInfo.processInfo.environment
guard let service = URL(string: environment["ATPROTO_SERVICE"] ?? "https://bsky.social"),
    let handle = environment["ATPROTO_HANDLE"], let password = environment["ATPROTO_PASSWORD"]
else {
    print("set ATPROTO_HANDLE and ATPROTO_PASSWORD (an app password), and ATPROTO_SERVICE for another server")
    exit(64)
}

// Sign in with an app password (OAuth: docs/OAuth.md).
let session = PasswordSession(service: service)
let account = try await session.login(ATIdentifier(rawValue: handle), password: password)
let client = XRPCClient(agent: session)
print("signed in as \(handle) (\(account.did))")

// A post with a mention and a link: facets detected, the handle resolved to its DID, one write.
let text = "Hello from Swift, @\(handle)! The SDK: https://example.com/swift-atproto"
let rich = await RichText.detecting(text) { mentioned in
    try? await client.com.atproto.identity.resolveHandle(handle: mentioned).did
}
let published = try await client.publishPost(BlueskyPostDraft(text: rich, languages: ["en"]), repo: account.did)
print("posted \(published.strongRef.uri) with \(rich.facets.compactMap(\.feature))")

// The timeline, and a moderation decision for each post under the user's own preferences.
let preferences = try await client.blueskyPreferences().moderationPreferences()
let moderation = ModerationOptions(viewer: account.did, preferences: preferences)
let timeline = try await client.app.bsky.feed.getTimeline(limit: 25)
for item in timeline.feed {
    let shown = moderation.decide(post: item.post).ui(.contentList)
    let verdict = shown.filter ? "hidden" : shown.blur ? "covered" : shown.alert ? "warned" : "shown"
    print("\(verdict): @\(item.post.author.handle) \(item.post.uri)")
}

// Like the post and unlike it by the like's URI; the AppView counts the like in between.
let like = try await client.like(published.strongRef, repo: account.did)
let liked = try await client.app.bsky.feed.getPosts(uris: [published.strongRef.uri]).posts.first
print("liked \(published.strongRef.uri) (likes: \(liked?.likeCount ?? 0), mine: \(liked?.viewer?.like == like.uri))")
try await client.unlike(like.uri)
print("unliked \(published.strongRef.uri)")

// Follow an account and unfollow it by the follow's URI.
let other = ATHandle(rawValue: environment["ATPROTO_FOLLOW"] ?? "bsky.app")
let otherDID = try await client.com.atproto.identity.resolveHandle(handle: other).did
let follow = try await client.follow(otherDID, repo: account.did)
print("followed @\(other) as \(follow.uri)")
try await client.unfollow(follow.uri)
print("unfollowed @\(other)")

let unread = try await client.unreadNotificationCount()
print("unread notifications: \(unread)")
