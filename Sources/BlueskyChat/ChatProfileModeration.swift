// BlueskyKit's moderation for the profiles of Bluesky's direct messages (chat.bsky).

@_exported import BlueskyKit
@_exported import ChatBskyLexicons

/// A chat profile is moderated as any other profile: its account's relationships and labels.
extension ChatBskyActorDefs.ProfileViewBasic: ModerationProfileSubject {}
