import AppBskyLexicons
import XRPCRuntime

/// A profile edit refused on this side: an avatar or banner the lexicon does not allow (refused
/// before it is uploaded), or a record whose compare-and-swap lost to other writers every time.
///
/// The server's own refusals are not this error: they come through as the call's errors
/// (`XRPCCallError`).
public struct BlueskyProfileError: AtprotoError {
    /// What is wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The image is larger than the field's `maxSize` (``BlueskyProfileError/limit`` in bytes).
        public static let imageTooLarge: Code = "imageTooLarge"
        /// The image's MIME type is none of the field's `accept` patterns.
        public static let imageTypeNotAccepted: Code = "imageTypeNotAccepted"
        /// Every attempt's write found the record changed since it was read (`InvalidSwap`); the
        /// profile was not written. ``BlueskyProfileError/limit`` is the number of attempts.
        public static let conflict: Code = "conflict"
    }

    /// What is wrong, for code to act on.
    public var code: Code
    /// The profile field (`avatar`, `banner`), when the error is about one.
    public var field: String?
    /// The limit broken: the field's `maxSize` for ``Code/imageTooLarge``, the attempts made for
    /// ``Code/conflict``.
    public var limit: Int?
    /// What is wrong, for a person to read.
    public var message: String
    /// The last `InvalidSwap` refusal, for ``Code/conflict``.
    public var underlying: XRPCCallError?

    /// Creates the error, refused as `message` says.
    public init(
        _ code: Code, field: String? = nil, limit: Int? = nil, message: String, underlying: XRPCCallError? = nil
    ) {
        self.code = code
        self.field = field
        self.limit = limit
        self.message = message
        self.underlying = underlying
    }

    /// The field and what is wrong.
    public var description: String {
        if let field { return "\(field): \(message)" }
        return message
    }
}
