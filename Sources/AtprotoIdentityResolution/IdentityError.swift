import AtprotoSyntax
import Foundation
import HTTPTransport

/// Why an identity could not be resolved or trusted: what failed, for which identifier, and where.
///
/// Every resolver in this module throws this type, so an app can act on ``code`` and show
/// ``description`` to a person.
public struct IdentityError: AtprotoError, Hashable {
    /// What went wrong. An open set: new codes may be added.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The handle, DID or URL is not valid syntax.
        public static let invalidIdentifier: Code = "invalidIdentifier"
        /// No DID is published for the handle (no TXT record, no well-known answer).
        public static let handleNotFound: Code = "handleNotFound"
        /// The handle's DNS records name several different DIDs.
        public static let handleConflict: Code = "handleConflict"
        /// The handle names a DID whose document does not claim the handle back.
        public static let handleMismatch: Code = "handleMismatch"
        /// The DID method is not one atproto supports (`did:plc`, `did:web`).
        public static let unsupportedDIDMethod: Code = "unsupportedDIDMethod"
        /// No document exists for the DID (404, or a tombstoned `did:plc`).
        public static let didNotFound: Code = "didNotFound"
        /// The document's `id` is not the DID asked for.
        public static let documentMismatch: Code = "documentMismatch"
        /// The answer is not what the protocol says: bad JSON, a missing field, a wrong type.
        public static let malformedAnswer: Code = "malformedAnswer"
        /// The answer is larger than the resolver's limit.
        public static let answerTooLarge: Code = "answerTooLarge"
        /// The server redirected to another host (or too many times).
        public static let redirected: Code = "redirected"
        /// The server answered with an unexpected HTTP status.
        public static let unexpectedStatus: Code = "unexpectedStatus"
        /// No answer arrived in time.
        public static let timedOut: Code = "timedOut"
        /// No answer arrived: connection refused, DNS failure, TLS failure.
        public static let unreachable: Code = "unreachable"
        /// The host to fetch from (a handle's, a `did:web`'s, a directory's) does not resolve: the
        /// system's resolver knows no such name. Not remembered by ``CachingIdentityResolver`` on its
        /// own, since a system resolver reports some DNS outages the same way; a handle whose DNS
        /// method answered (no `did=` record) and whose host does not resolve is
        /// ``handleNotFound``.
        public static let hostNotFound: Code = "hostNotFound"
        /// The document names no PDS (`#atproto_pds`) where one is needed.
        public static let missingPDS: Code = "missingPDS"
        /// The document names no usable signing key (`#atproto`) where one is needed.
        public static let missingSigningKey: Code = "missingSigningKey"
        /// The account's server disagrees with its DID document (an entryway or PDS answered for
        /// another account, or named another PDS).
        public static let serviceMismatch: Code = "serviceMismatch"
        /// The lookup was cancelled.
        public static let cancelled: Code = "cancelled"
    }

    /// What went wrong.
    public var code: Code
    /// The handle or DID being resolved.
    public var identifier: String
    /// What failed, for a person to read: the URL or name asked, and what was wrong.
    public var message: String
    /// The transport's error, when a fetch got no complete answer.
    public var underlying: HTTPTransportError?

    /// Creates an error.
    public init(_ code: Code, identifier: String, message: String, underlying: HTTPTransportError? = nil) {
        self.code = code
        self.identifier = identifier
        self.message = message
        self.underlying = underlying
    }

    public var description: String { "resolving \(identifier): \(code): \(message)" }
}
