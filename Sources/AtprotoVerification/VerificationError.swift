/// Why repository data failed verification: a distinct kind per claim that did not hold, and what
/// was being checked.
public struct VerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which claim failed. An open set: new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The commit's signature does not verify with the account's key.
        public static let badSignature = Kind(rawValue: "badSignature")
        /// The commit is for another DID than the one asked for.
        public static let wrongDID = Kind(rawValue: "wrongDID")
        /// The MST does not prove what it should: a missing node, a key out of order or at the wrong
        /// height, a broken link.
        public static let brokenProof = Kind(rawValue: "brokenProof")
        /// A block's bytes do not hash to its CID.
        public static let hashMismatch = Kind(rawValue: "hashMismatch")
        /// The account's key is of a type atproto does not sign with, or cannot be read.
        public static let unsupportedKey = Kind(rawValue: "unsupportedKey")
        /// A block or the CAR is not what the protocol says (bad CBOR, a missing field, a wrong type).
        public static let malformedData = Kind(rawValue: "malformedData")
        /// Over a limit (size, count, depth).
        public static let limitExceeded = Kind(rawValue: "limitExceeded")
        /// The account's identity could not be resolved.
        public static let identityUnavailable = Kind(rawValue: "identityUnavailable")
    }

    /// Which claim failed.
    public var kind: Kind
    /// What was being checked and what was wrong.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "verification failed (\(kind)): \(message)" }
}
