import Foundation

/// Why a lexicon could not be resolved: which NSID, at which step, and what went wrong there.
public struct LexiconResolutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The raw name of the kind.
        public let rawValue: String
        /// Creates a kind from its raw name.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The NSID (or pattern) is not valid.
        public static let invalidNSID = Kind(rawValue: "invalidNSID")
        /// `_lexicon.<authority>` has no `did=` TXT record: nobody publishes lexicons for this authority.
        public static let noAuthority = Kind(rawValue: "noAuthority")
        /// `_lexicon.<authority>` names more than one DID.
        public static let ambiguousAuthority = Kind(rawValue: "ambiguousAuthority")
        /// The DNS lookup itself failed (no answer, a malformed one).
        public static let dnsFailed = Kind(rawValue: "dnsFailed")
        /// The authority's DID could not be resolved to a document with a PDS and a key.
        public static let identityUnavailable = Kind(rawValue: "identityUnavailable")
        /// The authority's repository has no schema record for the NSID.
        public static let notPublished = Kind(rawValue: "notPublished")
        /// The record is not a lexicon for the NSID (wrong `$type`, `id`, or not an object).
        public static let invalidRecord = Kind(rawValue: "invalidRecord")
        /// The record did not prove: signature, MST path or hash (see ``LexiconResolutionError/message``).
        public static let verificationFailed = Kind(rawValue: "verificationFailed")
        /// The PDS answered with an error or not at all.
        public static let serverError = Kind(rawValue: "serverError")
    }

    /// The step that failed.
    public var kind: Kind
    /// The NSID being resolved.
    public var nsid: String
    /// What went wrong, with the name, DID or URL involved.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, nsid: String, _ message: String) {
        self.kind = kind
        self.nsid = nsid
        self.message = message
    }

    public var description: String { "cannot resolve lexicon \(nsid) (\(kind)): \(message)" }
}
