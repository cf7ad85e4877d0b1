import AtprotoSyntax

/// Why repository data failed verification: a distinct kind per claim that did not hold, and what
/// was being checked.
public struct AtprotoVerificationError: AtprotoError, Hashable {
    /// Which claim failed. An open set: new codes may be added.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The commit's signature does not verify with the account's key.
        public static let badSignature: Code = "badSignature"
        /// The commit is for another DID than the one asked for.
        public static let wrongDID: Code = "wrongDID"
        /// The MST does not prove what it should: a missing node, a key out of order or at the wrong
        /// height, a broken link.
        public static let brokenProof: Code = "brokenProof"
        /// A block's bytes do not hash to its CID.
        public static let hashMismatch: Code = "hashMismatch"
        /// The account's key is of a type atproto does not sign with, or cannot be read.
        public static let unsupportedKey: Code = "unsupportedKey"
        /// A block or the CAR is not what the protocol says (bad CBOR, a missing field, a wrong type).
        public static let malformedData: Code = "malformedData"
        /// Over a limit (size, count, depth).
        public static let limitExceeded: Code = "limitExceeded"
        /// The account's identity could not be resolved.
        public static let identityUnavailable: Code = "identityUnavailable"
    }

    /// Which claim failed.
    public var code: Code
    /// What was being checked and what was wrong.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "verification failed (\(code)): \(message)" }
}
