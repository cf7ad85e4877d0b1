import Foundation

/// One OAuth scope string of atproto: `atproto`, the transitional scopes, or a granular permission
/// (`repo:`, `rpc:`, `blob:`, `account:`, `identity:`), as a typed value.
public struct OAuthScope: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
    /// The scope string.
    public let rawValue: String

    /// Any scope string (space-free; spaces separate scopes).
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// `atproto`: required in every request.
    public static let atproto = OAuthScope(rawValue: "atproto")
    /// `transition:generic`: what an app password allows.
    public static let transitionGeneric = OAuthScope(rawValue: "transition:generic")
    /// `transition:chat.bsky`: direct messages.
    public static let transitionChatBsky = OAuthScope(rawValue: "transition:chat.bsky")
    /// `transition:email`: the account's email.
    public static let transitionEmail = OAuthScope(rawValue: "transition:email")

    /// An action on records.
    public enum RecordAction: String, Sendable, Hashable, CaseIterable {
        /// Create records.
        case create
        /// Update records.
        case update
        /// Delete records.
        case delete
    }

    /// `repo:<collection>[?action=...]`: writes to one collection (`*` for all).
    public static func repo(_ collection: String, actions: [RecordAction] = []) -> OAuthScope {
        let query = actions.map { "action=" + $0.rawValue }.joined(separator: "&")
        return OAuthScope(rawValue: "repo:" + collection + (query.isEmpty ? "" : "?" + query))
    }

    /// `rpc:<nsid>?aud=<service DID>`: calls of one method (`*` for all) proxied to one service.
    public static func rpc(_ nsid: String, audience: String) -> OAuthScope {
        OAuthScope(rawValue: "rpc:" + nsid + "?aud=" + audience)
    }

    /// `blob:<mime type>`: blob uploads of a type (`image/*`, `*/*`).
    public static func blob(_ accept: String) -> OAuthScope {
        OAuthScope(rawValue: "blob:" + accept)
    }

    /// `account:<attribute>[?action=manage]`: account settings (`email`, `repo`, `status`).
    public static func account(_ attribute: String, manage: Bool = false) -> OAuthScope {
        OAuthScope(rawValue: "account:" + attribute + (manage ? "?action=manage" : ""))
    }

    /// `identity:<attribute>`: the handle (`handle`) or the whole identity (`*`).
    public static func identity(_ attribute: String) -> OAuthScope {
        OAuthScope(rawValue: "identity:" + attribute)
    }

    /// The space-separated scope parameter, `atproto` first and each scope once.
    public static func parameter(_ scopes: [OAuthScope]) -> String {
        var seen: Set<String> = []
        return ([.atproto] + scopes).map(\.rawValue).filter { seen.insert($0).inserted }.joined(separator: " ")
    }

    /// The scopes of a space-separated parameter.
    public static func parse(_ parameter: String) -> [OAuthScope] {
        parameter.split(separator: " ").map { OAuthScope(rawValue: String($0)) }
    }
}
