import AtprotoSyntax
import Foundation
import HTTPTransport

/// Why an OAuth step failed: an error the server sent (``serverCode``), or a check of ours that its
/// answer did not pass. Never contains a token, key, code or verifier.
public struct OAuthError: AtprotoError, Hashable {
    /// What went wrong. An open set: new codes may be added.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The server answered with an OAuth error (`error`, see ``OAuthError/serverCode``).
        public static let server: Code = "server"
        /// A metadata document failed its checks (issuer, required fields, the atproto profile).
        public static let invalidMetadata: Code = "invalidMetadata"
        /// A server's answer was not what the protocol says (bad JSON, wrong token type, a field missing).
        public static let invalidResponse: Code = "invalidResponse"
        /// Something we were asked to send is not valid (a bad verifier, a URL that is not https).
        public static let invalidRequest: Code = "invalidRequest"
        /// A URL is not https (plain http is allowed only on loopback hosts).
        public static let insecureURL: Code = "insecureURL"
        /// The callback does not belong to the flow: wrong `state`, wrong `iss`, no code.
        public static let invalidCallback: Code = "invalidCallback"
        /// The account or issuer is not the one the flow or session is bound to.
        public static let bindingMismatch: Code = "bindingMismatch"
        /// No complete answer arrived: connection failure, timeout.
        public static let transport: Code = "transport"
        /// The answer was larger than allowed.
        public static let tooLarge: Code = "tooLarge"
        /// The signer failed.
        public static let signing: Code = "signing"
        /// The caller cancelled.
        public static let cancelled: Code = "cancelled"
        /// No answer within the time allowed.
        public static let timedOut: Code = "timedOut"
    }

    /// What went wrong.
    public var code: Code
    /// What failed, for a person to read.
    public var message: String
    /// The server's `error` code (`invalid_grant`, `use_dpop_nonce`), when it sent one.
    public var serverCode: String?
    /// The server's `error_description`, when it sent one.
    public var serverDescription: String?
    /// The HTTP status of the answer, when there was one.
    public var status: Int?
    /// The transport's error, when no complete answer arrived (``Code/transport``, ``Code/timedOut``,
    /// ``Code/tooLarge``, ``Code/cancelled``).
    public var underlying: HTTPTransportError?

    /// Creates an error.
    public init(
        _ code: Code, serverCode: String? = nil, serverDescription: String? = nil, status: Int? = nil,
        message: String, underlying: HTTPTransportError? = nil
    ) {
        self.code = code
        self.message = message
        self.serverCode = serverCode
        self.serverDescription = serverDescription
        self.status = status
        self.underlying = underlying
    }

    /// The OAuth error of a failed answer: its JSON `error` and `error_description`, else the
    /// `WWW-Authenticate` challenge's, else the status alone.
    public static func fromResponse(_ response: HTTPTransportResponse, _ what: String) -> OAuthError {
        var code: String?
        var text: String?
        if let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] {
            code = object["error"] as? String
            text = (object["error_description"] as? String) ?? (object["message"] as? String)
        }
        if code == nil, let challenge = WWWAuthenticateChallenge.parse(response.headers).first {
            code = challenge.parameters["error"]
            text = text ?? challenge.parameters["error_description"]
        }
        let shown = code.map { ": \($0)" } ?? ""
        return OAuthError(
            .server, serverCode: code, serverDescription: text.map { String($0.prefix(300)) }, status: response.status,
            message: "\(what) failed with HTTP \(response.status)\(shown)")
    }

    /// Whether the server asked for a (new) DPoP nonce (`use_dpop_nonce`).
    public var isUseDPoPNonce: Bool { serverCode == "use_dpop_nonce" }

    public var description: String {
        var text = "OAuth: \(message)"
        if let serverDescription { text += " (\(serverDescription))" }
        return text
    }
}
