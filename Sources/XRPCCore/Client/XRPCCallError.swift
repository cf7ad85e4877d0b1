import AtprotoSyntax
import Foundation

/// Why an XRPC call failed, whatever the cause: the one error every call through ``XRPCClient`` and
/// every generated method throws (`throws(XRPCCallError)`).
///
/// ``code`` says what happened in terms an app acts on: the server refused with an error the endpoint
/// declares (``Code/declaredError``, read it typed with ``declaredError(for:)``), with another one
/// (``Code/serverError``, ``Code/rateLimited``), no answer came (``Code/timedOut``,
/// ``Code/cannotConnect``...), the session cannot authenticate the call (``Code/sessionEnded``), or the
/// call failed on this side (``Code/invalidInput``, ``Code/invalidOutput``...). ``underlying`` keeps the
/// error that caused it (the server's ``XRPCError``, the agent's transport or session error, a
/// `LexiconValidationError`, a `LexiconDecodingError`), so nothing is lost.
///
/// ```swift
/// do throws(XRPCCallError) {
///     _ = try await client.com.atproto.repo.putRecord(input)
/// } catch {
///     if error.declaredError(for: ComAtprotoRepoPutRecord.self) == .invalidSwap {
///         // the record changed since it was read: read it again
///     } else if error.code == .timedOut {
///         // try again later
///     } else if error.code == .sessionEnded {
///         // sign in again
///     }
/// }
/// ```
public struct XRPCCallError: AtprotoError {
    /// What failed. An open set: a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The server refused with an error the endpoint's lexicon declares (`InvalidSwap`); read it
        /// typed with ``XRPCCallError/declaredError(for:)``.
        public static let declaredError: Code = "declaredError"
        /// The server refused with status 429: too many calls. `retry-after` and the rate-limit headers
        /// are in ``XRPCCallError/headers``.
        public static let rateLimited: Code = "rateLimited"
        /// The server answered with an error status and a name the endpoint does not declare
        /// (`InvalidRequest`, `ExpiredToken`, `InternalServerError`), or none.
        public static let serverError: Code = "serverError"
        /// No answer within the call's timeout.
        public static let timedOut: Code = "timedOut"
        /// The calling task was cancelled.
        public static let cancelled: Code = "cancelled"
        /// No connection could be made (unknown host, refused, no network, TLS): the server never saw
        /// the request.
        public static let cannotConnect: Code = "cannotConnect"
        /// The connection broke before a complete answer: the server may have acted on the request.
        public static let connectionLost: Code = "connectionLost"
        /// The session ended (signed out, grant revoked, refresh refused for good): every call fails
        /// until the user signs in again. Nothing was sent.
        public static let sessionEnded: Code = "sessionEnded"
        /// The session could not authenticate the call for a reason that may pass (a refresh that
        /// failed); it is kept and the next call tries again.
        public static let sessionFailed: Code = "sessionFailed"
        /// The input breaks its lexicon's constraints (``XRPCClient/validatesInput``); nothing was sent.
        /// The ``XRPCCallError/underlying`` `LexiconValidationError` lists every violation.
        public static let invalidInput: Code = "invalidInput"
        /// The input could not be encoded into a request body; nothing was sent.
        public static let encodingFailed: Code = "encodingFailed"
        /// The server answered with a success status, but the body is not the endpoint's output: the
        /// answer is in ``XRPCCallError/response``, the decoder's error in ``XRPCCallError/underlying``.
        public static let invalidOutput: Code = "invalidOutput"
        /// The agent failed with an error of its own (an app's agent, a transport without a response
        /// of another kind); ``XRPCCallError/underlying`` is that error.
        public static let agentFailed: Code = "agentFailed"
    }

    /// What failed.
    public var code: Code
    /// The endpoint's NSID.
    public var nsid: NSID
    /// The HTTP status of the server's answer, or `nil` when there was none.
    public var status: Int?
    /// The error name the server answered with (`"InvalidSwap"`), or `nil` when it gave none.
    public var name: String?
    /// The server's answer: the error answer, or the success answer that could not be read; `nil` when
    /// none arrived.
    public var response: XRPCResponse?
    /// What went wrong, for people to read: the server's message when it sent one.
    public var message: String
    /// The error that caused this one: the server's ``XRPCError``, the agent's error (a transport's
    /// `XRPCTransportError`, a session's `PasswordSessionError` or `OAuthSessionError`), a
    /// `LexiconValidationError`, the decoder's error, `CancellationError`.
    public var underlying: any Error

    /// Creates an error.
    public init(
        _ code: Code, nsid: NSID, status: Int? = nil, name: String? = nil, response: XRPCResponse? = nil,
        message: String, underlying: any Error
    ) {
        self.code = code
        self.nsid = nsid
        self.status = status
        self.name = name
        self.response = response
        self.message = message
        self.underlying = underlying
    }

    /// The server's refusal as one of `endpoint`'s declared errors, or `nil` when the call is not to
    /// `endpoint` or the server did not refuse with an error it declares.
    ///
    /// `error.declaredError(for: ComAtprotoRepoPutRecord.self) == .invalidSwap`
    public func declaredError<E: XRPCEndpoint>(for endpoint: E.Type) -> E.Error? {
        guard code == .declaredError, nsid == E.nsid, let name else { return nil }
        return E.Error(name: name)
    }

    /// The server's error answer, when the call got one: status, name, message, headers.
    public var serverError: XRPCError? { underlying as? XRPCError }

    /// The header fields of the server's answer, empty when none arrived.
    public var headers: HTTPHeaderFields { response?.headers ?? serverError?.headers ?? [:] }

    public var description: String {
        var text = "\(nsid) failed (\(code))"
        if let status { text += " with status \(status)" }
        if let name { text += ": \(name)" }
        return text + (name == nil ? ": " : " - ") + message
    }
}

/// An error an agent can throw that knows which ``XRPCCallError/Code`` it is: the transport and
/// session errors of the package's agents. Any other error reaches the call as
/// ``XRPCCallError/Code/agentFailed``.
package protocol XRPCCallFailure: Error {
    /// The code of a call that failed with this error.
    var callErrorCode: XRPCCallError.Code { get }
}

extension XRPCCallError {
    /// The error of a call to `E` whose agent threw `error` instead of answering.
    package static func classifying<E: XRPCEndpoint>(_ error: any Error, of endpoint: E.Type) -> XRPCCallError {
        classifying(error, nsid: E.nsid, declaredNames: E.Error.declaredNames)
    }

    /// The error of a call to `nsid` whose agent threw `error` instead of answering.
    package static func classifying(_ error: any Error, nsid: NSID, declaredNames: [String]) -> XRPCCallError {
        switch error {
        case let error as XRPCCallError:
            // A call the agent made itself (another endpoint's): keep its kind, not its declared name.
            let code = error.code == .declaredError ? .serverError : error.code
            return XRPCCallError(
                code, nsid: nsid, status: error.status, name: error.name, response: error.response,
                message: error.message, underlying: error)
        case let error as XRPCError where error.nsid == nsid:
            return answered(error, response: nil, declaredNames: declaredNames)
        case let error as any XRPCCallFailure:
            return XRPCCallError(error.callErrorCode, nsid: nsid, message: "\(error)", underlying: error)
        case is CancellationError:
            return XRPCCallError(.cancelled, nsid: nsid, message: "the calling task was cancelled", underlying: error)
        default:
            return XRPCCallError(.agentFailed, nsid: nsid, message: "\(error)", underlying: error)
        }
    }

    /// The error of a call the server refused with `error`: ``Code/declaredError`` when its name is
    /// one of `declaredNames`.
    package static func answered(_ error: XRPCError, response: XRPCResponse?, declaredNames: [String])
        -> XRPCCallError
    {
        let code: Code
        if let name = error.name, declaredNames.contains(name) {
            code = .declaredError
        } else if error.status == 429 {
            code = .rateLimited
        } else {
            code = .serverError
        }
        let message = error.message ?? error.status.map { "status \($0)" } ?? "refused"
        return XRPCCallError(
            code, nsid: error.nsid, status: error.status, name: error.name, response: response, message: message,
            underlying: error)
    }
}
