import Foundation

/// Why an OAuth step failed: an error the server sent (``serverCode``), or a check of ours that its
/// answer did not pass. Never contains a token, key, code or verifier.
public struct OAuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. An open set: new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The kind's name.
        public let rawValue: String
        /// Creates a kind.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The server answered with an OAuth error (`error`, see ``OAuthError/serverCode``).
        public static let server = Kind(rawValue: "server")
        /// A metadata document failed its checks (issuer, required fields, the atproto profile).
        public static let invalidMetadata = Kind(rawValue: "invalidMetadata")
        /// A server's answer was not what the protocol says (bad JSON, wrong token type, a field missing).
        public static let invalidResponse = Kind(rawValue: "invalidResponse")
        /// Something we were asked to send is not valid (a bad verifier, a URL that is not https).
        public static let invalidRequest = Kind(rawValue: "invalidRequest")
        /// A URL is not https (plain http is allowed only on loopback hosts).
        public static let insecureURL = Kind(rawValue: "insecureURL")
        /// The callback does not belong to the flow: wrong `state`, wrong `iss`, no code.
        public static let invalidCallback = Kind(rawValue: "invalidCallback")
        /// The account or issuer is not the one the flow or session is bound to.
        public static let bindingMismatch = Kind(rawValue: "bindingMismatch")
        /// No complete answer arrived: connection failure, timeout.
        public static let transport = Kind(rawValue: "transport")
        /// The answer was larger than allowed.
        public static let tooLarge = Kind(rawValue: "tooLarge")
        /// The signer failed.
        public static let signing = Kind(rawValue: "signing")
        /// The caller cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
        /// No answer within the time allowed.
        public static let timedOut = Kind(rawValue: "timedOut")
    }

    /// What went wrong.
    public var kind: Kind
    /// What failed, for a person to read.
    public var message: String
    /// The server's `error` code (`invalid_grant`, `use_dpop_nonce`), when it sent one.
    public var serverCode: String?
    /// The server's `error_description`, when it sent one.
    public var serverDescription: String?
    /// The HTTP status of the answer, when there was one.
    public var status: Int?

    /// Creates an error.
    public init(
        _ kind: Kind, _ message: String, serverCode: String? = nil, serverDescription: String? = nil,
        status: Int? = nil
    ) {
        self.kind = kind
        self.message = message
        self.serverCode = serverCode
        self.serverDescription = serverDescription
        self.status = status
    }

    /// The OAuth error of a failed answer: its JSON `error` and `error_description`, else the
    /// `WWW-Authenticate` challenge's, else the status alone.
    public static func fromResponse(_ response: OAuthHTTPResponse, _ what: String) -> OAuthError {
        var code: String?
        var text: String?
        if let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] {
            code = object["error"] as? String
            text = (object["error_description"] as? String) ?? (object["message"] as? String)
        }
        if code == nil, let header = response.header("WWW-Authenticate"),
            let challenge = WWWAuthenticateChallenge.parse(header).first
        {
            code = challenge.parameters["error"]
            text = text ?? challenge.parameters["error_description"]
        }
        let shown = code.map { ": \($0)" } ?? ""
        return OAuthError(
            .server, "\(what) failed with HTTP \(response.status)\(shown)", serverCode: code,
            serverDescription: text.map { String($0.prefix(300)) }, status: response.status)
    }

    /// Whether the server asked for a (new) DPoP nonce (`use_dpop_nonce`).
    public var isUseDPoPNonce: Bool { serverCode == "use_dpop_nonce" }

    public var description: String {
        var text = "OAuth: \(message)"
        if let serverDescription { text += " (\(serverDescription))" }
        return text
    }
}
