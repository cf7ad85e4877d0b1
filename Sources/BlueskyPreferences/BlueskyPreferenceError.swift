import AppBskyLexicons
import XRPCRuntime

/// A preference change refused before anything is written: a value that breaks its lexicon (an
/// interest over its length, too many queued nudges), a saved feed whose value does not name a record
/// of its kind, an id that names nothing.
///
/// A change made inside `updateBlueskyPreferences` throws it out of the closure, so nothing is
/// written; the calls on `XRPCClient` that take the change's input check it before sending anything.
/// The server's own refusals are not this error: they come through as the call's errors.
public struct BlueskyPreferenceError: AtprotoError {
    /// What is wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The preference item made from the input fails its lexicon (``BlueskyPreferenceError/underlying``
        /// has every violation).
        public static let invalidValue: Code = "invalidValue"
        /// A saved feed's value is not what its type needs: a feed generator's AT URI for `feed`, a
        /// list's for `list`, a non-empty value for the others.
        public static let invalidFeed: Code = "invalidFeed"
        /// An item to update or edit has no id.
        public static let missingID: Code = "missingID"
        /// Two saved feeds have the same id.
        public static let duplicateID: Code = "duplicateID"
        /// No stored item has the id given.
        public static let notFound: Code = "notFound"
    }

    /// What is wrong, for code to act on.
    public var code: Code
    /// The preference's definition in `app.bsky.actor.defs` (`savedFeedsPrefV2`, `mutedWordsPref`).
    public var preference: String
    /// The value refused (a feed's URI, an id), when there is one.
    public var value: String?
    /// What is wrong, for a person to read.
    public var message: String
    /// The lexicon's findings, for ``Code/invalidValue``.
    public var underlying: LexiconValidationError?

    /// Creates the error for `preference`, refused as `message` says.
    public init(
        _ code: Code, preference: String, value: String? = nil, message: String,
        underlying: LexiconValidationError? = nil
    ) {
        self.code = code
        self.preference = preference
        self.value = value
        self.message = message
        self.underlying = underlying
    }

    /// The preference, the value and what is wrong with it.
    public var description: String {
        if let value { return "\(preference): \"\(value)\" \(message)" }
        return "\(preference): \(message)"
    }
}
