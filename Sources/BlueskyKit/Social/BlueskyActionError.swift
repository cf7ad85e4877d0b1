import AppBskyLexicons
import XRPCRuntime

/// Input a social action refused before sending anything: an AT URI that does not name a record of
/// the collection the action works on (unliking a URI that is not a like, muting a list URI that is
/// not a list), an actor that is not a DID, or an account acting on itself.
///
/// The server's own refusals are not this error: they come through as the call's errors
/// (`XRPCError` and the others of docs/Errors.md).
public struct BlueskyActionError: AtprotoError, Hashable {
    /// What is wrong. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The value is not a valid AT URI of a record (`at://<repo>/<collection>/<rkey>`).
        public static let invalidURI: Code = "invalidURI"
        /// The AT URI names a record of another collection than the action works on
        /// (``BlueskyActionError/expected`` names the one it needs).
        public static let wrongCollection: Code = "wrongCollection"
        /// The account is not a valid DID (or, where a handle is taken too, neither a DID nor a handle).
        public static let invalidActor: Code = "invalidActor"
        /// The account would act on itself (follow or block itself).
        public static let subjectIsSelf: Code = "subjectIsSelf"
        /// The server's answer named a record the action cannot undo (a list's `viewer.blocked`
        /// that is not a list block). Nothing was deleted.
        public static let unexpectedAnswer: Code = "unexpectedAnswer"
    }

    /// What is wrong, for code to act on.
    public var code: Code
    /// The action, named as its method (`unlike`, `muteList`).
    public var action: String
    /// The value refused: the AT URI or the DID as given.
    public var value: String
    /// The collection the action needs, for ``Code/wrongCollection`` (and ``Code/unexpectedAnswer``).
    public var expected: NSID?
    /// What is wrong with the value, for a person to read.
    public var message: String

    /// Creates the error for `value`, given to `action`, refused as `message` says.
    public init(_ code: Code, action: String, value: String, expected: NSID? = nil, message: String) {
        self.code = code
        self.action = action
        self.value = value
        self.expected = expected
        self.message = message
    }

    /// The action, the value and what is wrong with it.
    public var description: String { "\(action): \"\(value)\" \(message)" }
}

/// The checks of the actions' input, each throwing ``BlueskyActionError``.
enum SocialInput {
    /// `uri` split into its repository and record key, when it names a record of `collection`.
    static func record(_ uri: ATURI, of collection: NSID, action: String) throws -> (ATIdentifier, RecordKey) {
        let (repo, found, rkey) = try anyRecord(uri, action: action)
        guard found == collection else {
            throw BlueskyActionError(
                .wrongCollection, action: action, value: uri.rawValue, expected: collection,
                message: "is a record of \(found), not of \(collection)")
        }
        return (repo, rkey)
    }

    /// `uri` split into its repository, collection and record key, when it names a record.
    static func anyRecord(_ uri: ATURI, action: String) throws -> (ATIdentifier, NSID, RecordKey) {
        if let reason = ATURI.syntaxError(in: uri.rawValue) {
            throw BlueskyActionError(
                .invalidURI, action: action, value: uri.rawValue, message: "is not an AT URI: \(reason)")
        }
        guard let collection = uri.collection, let rkey = uri.rkey else {
            throw BlueskyActionError(
                .invalidURI, action: action, value: uri.rawValue,
                message: "names no record: it needs a collection and a record key")
        }
        return (uri.authority, collection, rkey)
    }

    /// Checks a strong reference's URI names a record of `collection` (any record when `nil`).
    static func reference(_ ref: ComAtprotoRepoStrongRef, of collection: NSID?, action: String) throws {
        if let collection {
            _ = try record(ref.uri, of: collection, action: action)
        } else {
            _ = try anyRecord(ref.uri, action: action)
        }
    }

    /// Checks `subject` is a DID other than `repo`.
    static func otherAccount(_ subject: DID, repo: DID, action: String) throws {
        if let reason = DID.syntaxError(in: subject.rawValue) {
            throw BlueskyActionError(
                .invalidActor, action: action, value: subject.rawValue, message: "is not a DID: \(reason)")
        }
        guard subject != repo else {
            throw BlueskyActionError(
                .subjectIsSelf, action: action, value: subject.rawValue, message: "is the account itself")
        }
    }
}
