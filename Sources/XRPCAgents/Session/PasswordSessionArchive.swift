import AtprotoSyntax
import Foundation

/// A session token (an access or refresh JWT) that never shows its value when printed, dumped or
/// reflected.
///
/// `Codable` writes the bare string, so an archive can be stored; read ``value`` only to hand the
/// token to code that needs it.
public struct XRPCSessionToken: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The token itself. Never log it.
    public let value: String

    /// Wraps a token.
    public init(_ value: String) { self.value = value }

    /// Reads the bare string.
    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    /// `<redacted>`.
    public var description: String { "<redacted>" }
    /// `XRPCSessionToken(<redacted>)`.
    public var debugDescription: String { "XRPCSessionToken(<redacted>)" }
    /// A mirror without children.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// The `Authorization` header value, `Bearer <token>`.
    var bearer: String { "Bearer " + value }
}

/// Everything needed to resume a password session: store it (in the keychain or equivalent) each
/// time ``PasswordSession/updates()`` yields a new one, and pass it to
/// ``PasswordSession/init(restoring:agent:credentialsProvider:accountCheck:logger:)`` on the next launch.
///
/// Printing or dumping an archive never shows its tokens.
public struct PasswordSessionArchive: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible
{
    /// The service the account logged in to (`https://bsky.social`); session calls go there.
    public var service: URL
    /// The account's DID.
    public var did: DID
    /// The account's handle.
    public var handle: ATHandle
    /// The access token (`accessJwt`).
    public var accessToken: XRPCSessionToken
    /// The refresh token (`refreshJwt`).
    public var refreshToken: XRPCSessionToken
    /// The account's PDS from its DID document (`#atproto_pds`), or `nil` when the server sent none;
    /// calls go there when set.
    public var pdsEndpoint: URL?
    /// The account's email, when the server shared it.
    public var email: String?
    /// Whether the account is active, when the server said.
    public var active: Bool?
    /// The account status (`takendown`, `suspended`, `deactivated`) when not active.
    public var status: String?

    /// Creates an archive.
    public init(
        service: URL,
        did: DID,
        handle: ATHandle,
        accessToken: XRPCSessionToken,
        refreshToken: XRPCSessionToken,
        pdsEndpoint: URL? = nil,
        email: String? = nil,
        active: Bool? = nil,
        status: String? = nil
    ) {
        self.service = service
        self.did = did
        self.handle = handle
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.pdsEndpoint = pdsEndpoint
        self.email = email
        self.active = active
        self.status = status
    }

    private enum CodingKeys: String, CodingKey {
        case service, did, handle, accessToken = "accessJwt", refreshToken = "refreshJwt", pdsEndpoint, email, active
        case status
    }

    /// Where calls go: the PDS when known, else the service.
    public var callServiceURL: URL { pdsEndpoint ?? service }

    /// The DID, handle and hosts; never the tokens.
    public var description: String {
        var text = "\(did.rawValue) (\(handle.rawValue)) on \(service.absoluteString)"
        if let pdsEndpoint, pdsEndpoint != service { text += ", PDS \(pdsEndpoint.absoluteString)" }
        return text
    }

    /// The same as ``description``, with the type name.
    public var debugDescription: String { "PasswordSessionArchive(\(description), tokens: <redacted>)" }
}

/// A change of a ``PasswordSession`` for the app to persist.
public enum PasswordSessionUpdate: Sendable, Hashable, CustomStringConvertible {
    /// A new session state (login, refresh, re-login, new handle or PDS): store it.
    case updated(PasswordSessionArchive)
    /// The session ended for good (tokens dead and no new login); delete the stored archive.
    case ended(PasswordSessionError)
    /// The app logged out; delete the stored archive.
    case loggedOut

    public var description: String {
        switch self {
        case .updated(let archive): return "updated: \(archive)"
        case .ended(let error): return "ended: \(error)"
        case .loggedOut: return "logged out"
        }
    }
}
