// Bluesky's direct messages as a client preset: every call goes through the account's PDS, proxied to
// the chat service (`atproto-proxy: did:web:api.bsky.chat#bsky_chat` by default), which is how the
// chat service is reached (it takes no call from an app directly).

import AppBskyLexicons
import BlueskyKit
import ChatBskyLexicons
import XRPCRuntime

/// The chat calls of a signed-in account, proxied to the chat service.
///
/// ```swift
/// let chat = BlueskyChatClient(client)
/// let page = try await chat.conversations()
/// let text = await RichText.detecting("see https://example.com @bob.test", resolver: resolver)
/// let sent = try await chat.send(text, to: page.conversations[0].id)
/// ```
///
/// The generated calls stay at hand for the rest of `chat.bsky`: `chat.client.chat.bsky.convo...`.
public struct BlueskyChatClient: Sendable {
    /// The client every chat call goes through: the one given, proxied to the chat service.
    public let client: XRPCClient

    /// Wraps `client` (a signed-in account's), proxying its calls to `service` (Bluesky's chat
    /// service unless another one is named).
    public init(_ client: XRPCClient, service: AtprotoProxy = .bskyChat) {
        self.client = client.proxied(to: service)
    }

    /// A page of the account's conversations, the most recently active first.
    ///
    /// - Parameters:
    ///   - limit: At most this many (the lexicon's range is 1...100).
    ///   - cursor: The ``BlueskyChatConversationPage/cursor`` of the page before, or `nil` for the first.
    ///   - readState: Only the conversations with unread messages, when `.unread`.
    ///   - status: Only accepted conversations or only requests.
    public func conversations(
        limit: Int = 50, cursor: String? = nil,
        readState: ChatBskyConvoListConvos.Parameters.ReadState? = nil,
        status: ChatBskyConvoListConvos.Parameters.Status? = nil
    ) async throws(XRPCCallError) -> BlueskyChatConversationPage {
        let output = try await client.chat.bsky.convo.listConvos(
            cursor: cursor, limit: limit, readState: readState, status: status)
        return BlueskyChatConversationPage(conversations: output.convos, cursor: output.cursor)
    }

    /// The conversation between the account and `members` (other accounts, at most 9), created
    /// when there is none yet.
    public func conversation(with members: [DID]) async throws(XRPCCallError) -> ChatBskyConvoDefs.ConvoView {
        try await client.chat.bsky.convo.getConvoForMembers(members: members).convo
    }

    /// A page of a conversation's messages, the newest first (messages and deleted-message markers).
    public func messages(in conversationID: String, limit: Int = 50, cursor: String? = nil)
        async throws(XRPCCallError) -> ChatBskyConvoGetMessages.Output
    {
        try await client.chat.bsky.convo.getMessages(convoId: conversationID, cursor: cursor, limit: limit)
    }

    /// Sends `text` (with its facets: mentions, links, tags) to the conversation `conversationID`.
    ///
    /// - Throws: ``BlueskyChatMessageError`` before sending when the text is over the lexicon's limits
    ///   (``BlueskyChatMessageLimits``) or a facet's byte range is outside the text; then the call's
    ///   `XRPCCallError` (`ConvoLocked`, `InvalidConvo` as declared errors).
    public func send(
        _ text: RichText, to conversationID: String, replyTo: ChatBskyConvoDefs.ReplyRef? = nil
    ) async throws -> ChatBskyConvoDefs.MessageView {
        try BlueskyChatMessageLimits.check(text)
        let message = ChatBskyConvoDefs.MessageInput(
            text: text.text, facets: text.recordFacets, replyTo: replyTo)
        return try await client.chat.bsky.convo.sendMessage(convoId: conversationID, message: message)
    }
}

/// A page of conversations and the cursor of the next one.
public struct BlueskyChatConversationPage: Sendable, Hashable {
    /// The conversations, the most recently active first.
    public var conversations: [ChatBskyConvoDefs.ConvoView]
    /// The cursor of the next page; `nil` on the last.
    public var cursor: String?

    /// Creates a page.
    public init(conversations: [ChatBskyConvoDefs.ConvoView], cursor: String?) {
        self.conversations = conversations
        self.cursor = cursor
    }
}
