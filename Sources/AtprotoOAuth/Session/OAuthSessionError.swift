import AtprotoSyntax
import Foundation
import OAuthCore
import XRPCCore

/// Why an ``OAuthSession`` could not send a call, refresh, or sign out. Never contains a token.
public struct OAuthSessionError: AtprotoError, Hashable {
    /// The kind of failure. An open set.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The session ended for good (grant dead or revoked, binding broken, signed out): every call
        /// fails fast until the user signs in again.
        public static let sessionEnded: Code = "sessionEnded"
        /// A refresh or a call failed for a reason that may pass (network, server error); the session
        /// is kept.
        public static let requestFailed: Code = "requestFailed"
    }

    /// The kind of failure.
    public var code: Code
    /// What happened.
    public var message: String
    /// The OAuth error behind it, if any.
    public var underlying: OAuthError?

    /// Creates an error.
    public init(_ code: Code, message: String, underlying: OAuthError? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        var text = "OAuth session: \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

/// A change of an ``OAuthSession`` for the app to persist.
public enum OAuthSessionUpdate: Sendable, Hashable, CustomStringConvertible {
    /// A new state (sign-in, refresh, new nonce): store it.
    case updated(OAuthSessionArchive)
    /// The session ended for good; delete the stored archive.
    case ended(OAuthSessionError)
    /// The user signed out; delete the stored archive.
    case signedOut

    public var description: String {
        switch self {
        case .updated(let archive): return "updated: \(archive)"
        case .ended(let error): return "ended: \(error)"
        case .signedOut: return "signed out"
        }
    }
}

extension OAuthSessionError: XRPCCallFailure {
    /// ``XRPCCallError/Code/sessionEnded`` when the session ended, ``XRPCCallError/Code/sessionFailed``
    /// for any other failure of the session.
    package var callErrorCode: XRPCCallError.Code {
        code == .sessionEnded ? .sessionEnded : .sessionFailed
    }
}
