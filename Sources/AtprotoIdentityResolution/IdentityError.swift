import Foundation

/// Why an identity could not be resolved or trusted: what failed, for which identifier, and where.
///
/// Every resolver in this module throws this type, so an app can act on ``kind`` and show
/// ``description`` to a person.
public struct IdentityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. An open set: new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The handle, DID or URL is not valid syntax.
        public static let invalidIdentifier = Kind(rawValue: "invalidIdentifier")
        /// No DID is published for the handle (no TXT record, no well-known answer).
        public static let handleNotFound = Kind(rawValue: "handleNotFound")
        /// The handle's DNS records name several different DIDs.
        public static let handleConflict = Kind(rawValue: "handleConflict")
        /// The handle names a DID whose document does not claim the handle back.
        public static let handleMismatch = Kind(rawValue: "handleMismatch")
        /// The DID method is not one atproto supports (`did:plc`, `did:web`).
        public static let unsupportedDIDMethod = Kind(rawValue: "unsupportedDIDMethod")
        /// No document exists for the DID (404, or a tombstoned `did:plc`).
        public static let didNotFound = Kind(rawValue: "didNotFound")
        /// The document's `id` is not the DID asked for.
        public static let documentMismatch = Kind(rawValue: "documentMismatch")
        /// The answer is not what the protocol says: bad JSON, a missing field, a wrong type.
        public static let malformedAnswer = Kind(rawValue: "malformedAnswer")
        /// The answer is larger than the resolver's limit.
        public static let answerTooLarge = Kind(rawValue: "answerTooLarge")
        /// The server redirected to another host (or too many times).
        public static let redirected = Kind(rawValue: "redirected")
        /// The server answered with an unexpected HTTP status.
        public static let unexpectedStatus = Kind(rawValue: "unexpectedStatus")
        /// No answer arrived in time.
        public static let timedOut = Kind(rawValue: "timedOut")
        /// No answer arrived: connection refused, DNS failure, TLS failure.
        public static let unreachable = Kind(rawValue: "unreachable")
        /// The host to fetch from (a handle's, a `did:web`'s, a directory's) does not resolve: the
        /// system's resolver knows no such name. Not remembered by ``CachingIdentityResolver`` on its
        /// own, since a system resolver reports some DNS outages the same way; a handle whose DNS
        /// method answered (no `did=` record) and whose host does not resolve is
        /// ``handleNotFound``.
        public static let hostNotFound = Kind(rawValue: "hostNotFound")
        /// The document names no PDS (`#atproto_pds`) where one is needed.
        public static let missingPDS = Kind(rawValue: "missingPDS")
        /// The document names no usable signing key (`#atproto`) where one is needed.
        public static let missingSigningKey = Kind(rawValue: "missingSigningKey")
        /// The account's server disagrees with its DID document (an entryway or PDS answered for
        /// another account, or named another PDS).
        public static let serviceMismatch = Kind(rawValue: "serviceMismatch")
        /// The lookup was cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
    }

    /// What went wrong.
    public var kind: Kind
    /// The handle or DID being resolved.
    public var identifier: String
    /// What failed, for a person to read: the URL or name asked, and what was wrong.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, identifier: String, _ message: String) {
        self.kind = kind
        self.identifier = identifier
        self.message = message
    }

    public var description: String { "resolving \(identifier): \(kind): \(message)" }
}
