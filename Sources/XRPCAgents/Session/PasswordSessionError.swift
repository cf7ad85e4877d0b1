import AtprotoSyntax
import Foundation
import XRPCCore

/// Why a ``PasswordSession`` could not log in, refresh, or send a call. Never contains a token or
/// a password.
public struct PasswordSessionError: AtprotoError, Hashable {
    /// The kind of failure. An open set: new codes may be added.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The account has two-factor sign-in: log in again with the code the user received by email
        /// (`authFactorToken`).
        public static let authFactorTokenRequired: Code = "authFactorTokenRequired"
        /// The server refused the identifier and password (or the account cannot log in: see
        /// ``PasswordSessionError/underlying``).
        public static let authenticationFailed: Code = "authenticationFailed"
        /// The session ended for good: every call fails fast until the app logs in again.
        public static let sessionEnded: Code = "sessionEnded"
        /// A session call (create, refresh, get, delete) failed for another reason, such as a server
        /// error or rate limit; the session is kept and the next call tries again.
        public static let requestFailed: Code = "requestFailed"
        /// The server's answer to a session call lacked a required field.
        public static let invalidResponse: Code = "invalidResponse"
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, for people to read.
    public var message: String
    /// The server's error answer behind this one, if any.
    public var underlying: XRPCError?

    /// Creates an error.
    public init(_ code: Code, message: String, underlying: XRPCError? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        var text = "password session: \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

/// An identifier (handle, DID or email) and password to log in with.
///
/// Its description never shows the password.
public struct PasswordSessionCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The handle, DID or email.
    public var identifier: String
    /// The password (an app password is recommended).
    public var password: String
    /// The two-factor code from the email, when the server asked for one.
    public var authFactorToken: String?

    /// Creates credentials.
    public init(identifier: String, password: String, authFactorToken: String? = nil) {
        self.identifier = identifier
        self.password = password
        self.authFactorToken = authFactorToken
    }

    /// The identifier only.
    public var description: String { "PasswordSessionCredentials(\(identifier), password: <redacted>)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with the identifier only.
    public var customMirror: Mirror { Mirror(self, children: ["identifier": identifier], displayStyle: .struct) }
}

/// What a ``PasswordSession`` asks its credentials provider for.
public struct PasswordSessionCredentialsRequest: Sendable, Hashable {
    /// Why new credentials are needed. An open set.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        /// The reason's name.
        public let rawValue: String
        /// Creates a reason.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The refresh token was rejected: log in again.
        public static let sessionExpired = Reason(rawValue: "sessionExpired")
        /// The server asked for the two-factor code: return the credentials with `authFactorToken`.
        public static let authFactorTokenRequired = Reason(rawValue: "authFactorTokenRequired")
    }

    /// The account to log in again, as the session knew it.
    public var did: DID
    /// Its handle.
    public var handle: ATHandle
    /// Why credentials are needed.
    public var reason: Reason

    /// Creates a request.
    public init(did: DID, handle: ATHandle, reason: Reason) {
        self.did = did
        self.handle = handle
        self.reason = reason
    }
}

extension PasswordSession {
    /// The error of a refused or failed login.
    static func loginError(_ response: XRPCResponse, identifier: String) -> PasswordSessionError {
        let serverError = XRPCError.fromResponse(response, nsid: SessionEndpoints.createSession)
        if serverError.name == "AuthFactorTokenRequired" {
            return PasswordSessionError(
                .authFactorTokenRequired,
                message: "\(identifier) needs the two-factor code sent by email: log in again with authFactorToken",
                underlying: serverError)
        }
        if (400..<500).contains(response.status), response.status != 408, response.status != 429 {
            return PasswordSessionError(
                .authenticationFailed, message: "the server refused the login of \(identifier)", underlying: serverError
            )
        }
        return PasswordSessionError(
            .requestFailed, message: "could not log in \(identifier)", underlying: serverError)
    }
}

extension PasswordSessionError: XRPCCallFailure {
    /// ``XRPCCallError/Code/sessionEnded`` when the session ended, ``XRPCCallError/Code/sessionFailed``
    /// for any other failure of the session.
    package var callErrorCode: XRPCCallError.Code {
        code == .sessionEnded ? .sessionEnded : .sessionFailed
    }
}
