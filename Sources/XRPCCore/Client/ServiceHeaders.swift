import AtprotoSyntax
import Foundation

/// The target of service proxying: the `atproto-proxy` header, `<did>#<service id>`.
///
/// The PDS forwards a proxied call to the service that the DID document names under that id
/// (`did:web:api.bsky.chat#bsky_chat`), signing it with a service-auth token.
public struct AtprotoProxy: Sendable, Hashable, CustomStringConvertible {
    /// The service's DID.
    public let did: DID
    /// The service id in the DID document, without `#` (`atproto_labeler`, `bsky_chat`).
    public let serviceID: String

    /// Creates a proxy target; throws `LexiconStringFormatError` when the DID or the service id is invalid.
    ///
    /// A service id may start with `#`; it must be non-empty and made of URI fragment characters.
    public init(did: DID, serviceID: String) throws(LexiconStringFormatError) {
        if let reason = DID.syntaxError(in: did.rawValue) {
            throw LexiconStringFormatError(format: "did", value: did.rawValue, message: reason)
        }
        let id = serviceID.hasPrefix("#") ? String(serviceID.dropFirst()) : serviceID
        if let reason = Self.serviceIDError(id) {
            throw LexiconStringFormatError(format: "atproto-proxy service id", value: serviceID, message: reason)
        }
        self.did = did
        self.serviceID = id
    }

    /// Reads an `atproto-proxy` header value; throws `LexiconStringFormatError` when it is not `<did>#<id>`.
    public init(headerValue: String) throws(LexiconStringFormatError) {
        guard let hash = headerValue.firstIndex(of: "#") else {
            throw LexiconStringFormatError(
                format: "atproto-proxy", value: headerValue, message: "has no \"#<service id>\" after the DID")
        }
        try self.init(
            did: DID(rawValue: String(headerValue[..<hash])),
            serviceID: String(headerValue[headerValue.index(after: hash)...]))
    }

    /// The Bluesky AppView, `did:web:api.bsky.app#bsky_appview`.
    public static var bskyAppView: AtprotoProxy {
        AtprotoProxy(unchecked: DID(rawValue: "did:web:api.bsky.app"), serviceID: "bsky_appview")
    }

    /// The Bluesky chat service, `did:web:api.bsky.chat#bsky_chat`.
    public static var bskyChat: AtprotoProxy {
        AtprotoProxy(unchecked: DID(rawValue: "did:web:api.bsky.chat"), serviceID: "bsky_chat")
    }

    private init(unchecked did: DID, serviceID: String) {
        self.did = did
        self.serviceID = serviceID
    }

    /// The header value, `<did>#<service id>`.
    public var headerValue: String { did.rawValue + "#" + serviceID }

    /// The header value.
    public var description: String { headerValue }

    /// The header name, `atproto-proxy`.
    public static let headerName = "atproto-proxy"

    private static func serviceIDError(_ id: String) -> String? {
        guard !id.isEmpty else { return "the service id is empty" }
        for scalar in id.unicodeScalars {
            let allowed =
                (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || "-._~!$&'()*+,;=:@%".unicodeScalars.contains(scalar)
            guard allowed else { return "\"\(scalar)\" is not allowed in a service id" }
        }
        return nil
    }
}

/// A labeler in `atproto-accept-labelers` (request) or `atproto-content-labelers` (response):
/// its DID and whether it may redact content.
public struct LabelerPreference: Sendable, Hashable, CustomStringConvertible {
    /// The labeler's DID.
    public var did: DID
    /// Whether the labeler's `!takedown` labels redact content (`;redact`).
    public var redact: Bool

    /// Creates a preference.
    public init(did: DID, redact: Bool = false) {
        self.did = did
        self.redact = redact
    }

    /// `did` or `did;redact`, as written in the headers.
    public var description: String { redact ? did.rawValue + ";redact" : did.rawValue }

    /// Reads a header list (`did:plc:a;redact, did:plc:b`); entries whose DID is invalid are skipped.
    public static func parseList(_ headerValue: String) -> [LabelerPreference] {
        headerValue.split(separator: ",").compactMap { entry in
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let did = parts.first, DID.syntaxError(in: did) == nil else { return nil }
            return LabelerPreference(did: DID(rawValue: did), redact: parts.dropFirst().contains("redact"))
        }
    }

    /// Writes a header list.
    public static func headerValue(_ labelers: [LabelerPreference]) -> String {
        labelers.map(\.description).joined(separator: ", ")
    }

    /// The request header, `atproto-accept-labelers`.
    public static let acceptHeaderName = "atproto-accept-labelers"
    /// The response header, `atproto-content-labelers`.
    public static let contentHeaderName = "atproto-content-labelers"
}

extension XRPCResponse {
    /// The labelers the service applied (`atproto-content-labelers`), or `nil` when the header is absent.
    public var contentLabelers: [LabelerPreference]? {
        header(LabelerPreference.contentHeaderName).map(LabelerPreference.parseList)
    }
}

extension XRPCClient {
    /// A copy whose calls carry `name: value` (any spelling of `name` replaced); `nil` removes it.
    public func withHeader(_ name: String, _ value: String?) -> XRPCClient {
        var copy = self
        copy.headers[name] = value
        return copy
    }

    /// A copy whose calls the PDS proxies to `proxy` (`atproto-proxy`).
    ///
    /// ```swift
    /// let convos = try await client.proxied(to: .bskyChat).chat.bsky.convo.listConvos()
    /// ```
    public func proxied(to proxy: AtprotoProxy) -> XRPCClient {
        withHeader(AtprotoProxy.headerName, proxy.headerValue)
    }

    /// A copy whose calls the PDS proxies to the service `service` of `did`; throws
    /// `LexiconStringFormatError` when either is invalid.
    public func proxied(to did: DID, service: String) throws -> XRPCClient {
        proxied(to: try AtprotoProxy(did: did, serviceID: service))
    }

    /// A copy whose calls are not proxied.
    public func unproxied() -> XRPCClient {
        withHeader(AtprotoProxy.headerName, nil)
    }

    /// A copy whose calls ask for the labels of `labelers` (`atproto-accept-labelers`); an empty list
    /// removes the header, so the service applies its defaults.
    public func acceptingLabelers(_ labelers: [LabelerPreference]) -> XRPCClient {
        withHeader(LabelerPreference.acceptHeaderName, labelers.isEmpty ? nil : LabelerPreference.headerValue(labelers))
    }
}
