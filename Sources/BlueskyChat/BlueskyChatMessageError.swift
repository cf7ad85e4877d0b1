import BlueskyKit
import XRPCRuntime

/// The limits `chat.bsky.convo.defs#messageInput` puts on a message's text.
public enum BlueskyChatMessageLimits {
    /// The most UTF-8 bytes a message's text may have (`maxLength`).
    public static let maxBytes = 10_000
    /// The most graphemes (characters as a person counts them) a message's text may have (`maxGraphemes`).
    public static let maxGraphemes = 1_000

    /// Throws ``BlueskyChatMessageError`` when `text` is over a limit or a facet lies outside it.
    static func check(_ text: RichText) throws(BlueskyChatMessageError) {
        let length = text.length  // the same count of graphemes and bytes as a post's limits
        let bytes = length.bytes
        if bytes > maxBytes {
            throw BlueskyChatMessageError(
                .textTooLong, message: "the text is \(bytes) UTF-8 bytes; a message takes at most \(maxBytes)")
        }
        let graphemes = length.graphemes
        if graphemes > maxGraphemes {
            throw BlueskyChatMessageError(
                .textTooLong, message: "the text is \(graphemes) characters; a message takes at most \(maxGraphemes)")
        }
        for (index, facet) in text.facets.enumerated() {
            let range = facet.index
            guard range.byteStart >= 0, range.byteStart < range.byteEnd, range.byteEnd <= bytes else {
                throw BlueskyChatMessageError(
                    .facetOutOfRange,
                    message:
                        "facet \(index + 1) covers bytes \(range.byteStart)..<\(range.byteEnd) of a \(bytes)-byte text")
            }
        }
    }
}

/// A chat message refused before anything was sent. The chat service's own refusals come as the
/// call's `XRPCCallError`.
public struct BlueskyChatMessageError: AtprotoError, Hashable {
    /// What is wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The text is over ``BlueskyChatMessageLimits/maxBytes`` or ``BlueskyChatMessageLimits/maxGraphemes``.
        public static let textTooLong: Code = "textTooLong"
        /// A facet's byte range is empty or reaches outside the text.
        public static let facetOutOfRange: Code = "facetOutOfRange"
    }

    /// What is wrong, for code to act on.
    public var code: Code
    /// What is wrong, for a person to read.
    public var message: String

    /// Creates the error.
    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// What is wrong.
    public var description: String { "chat message refused: \(message)" }
}
