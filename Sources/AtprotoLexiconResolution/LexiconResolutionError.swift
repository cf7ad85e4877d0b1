import AtprotoSyntax
import Foundation

/// Why a lexicon could not be resolved: which NSID, at which step, and what went wrong there.
public struct LexiconResolutionError: AtprotoError, Hashable {
    /// The step that failed.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The NSID (or pattern) is not valid.
        public static let invalidNSID: Code = "invalidNSID"
        /// `_lexicon.<authority>` has no `did=` TXT record: nobody publishes lexicons for this authority.
        public static let noAuthority: Code = "noAuthority"
        /// `_lexicon.<authority>` names more than one DID.
        public static let ambiguousAuthority: Code = "ambiguousAuthority"
        /// The DNS lookup itself failed (no answer, a malformed one).
        public static let dnsFailed: Code = "dnsFailed"
        /// The authority's DID could not be resolved to a document with a PDS and a key.
        public static let identityUnavailable: Code = "identityUnavailable"
        /// The authority's repository has no schema record for the NSID.
        public static let notPublished: Code = "notPublished"
        /// The record is not a lexicon for the NSID (wrong `$type`, `id`, or not an object).
        public static let invalidRecord: Code = "invalidRecord"
        /// The record did not prove: signature, MST path or hash (see ``LexiconResolutionError/message``).
        public static let verificationFailed: Code = "verificationFailed"
        /// The PDS answered with an error or not at all.
        public static let serverError: Code = "serverError"
    }

    /// The step that failed.
    public var code: Code
    /// The NSID being resolved.
    public var nsid: String
    /// What went wrong, with the name, DID or URL involved.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, nsid: String, message: String) {
        self.code = code
        self.nsid = nsid
        self.message = message
    }

    public var description: String { "cannot resolve lexicon \(nsid) (\(code)): \(message)" }
}
