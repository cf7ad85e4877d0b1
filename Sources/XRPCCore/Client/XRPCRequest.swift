import AtprotoSyntax
import Foundation

/// One XRPC call as the agent sees it: everything needed to send it, nothing about types.
///
/// Its `description`, `debugDescription` and mirror never show credential headers
/// (`Authorization`, `DPoP`, `Cookie`) or the body's bytes, so a request can be logged.
public struct XRPCRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: XRPCMethod
    /// The endpoint's NSID; the path is `/xrpc/<nsid>`.
    public var nsid: NSID
    /// Query parameters in order; an array parameter appears once per element.
    public var queryItems: [URLQueryItem]
    /// Request header fields, in order (names as written; XRPC does not depend on case).
    public var headers: HTTPHeaderFields
    /// The body, or `nil` for none.
    public var body: Data?
    /// The body's `Content-Type`, or `nil` without a body.
    public var contentType: String?
    /// The service that should answer (`https://bsky.social`, a PDS, an AppView), or `nil` for the
    /// agent's own. Only its scheme, host, port and path prefix are used.
    ///
    /// A session adds its credentials only when this is `nil` or names one of its own hosts.
    public var serviceURL: URL?
    /// The longest the whole call may take, or `nil` for the transport's default.
    public var timeout: Duration?

    /// Creates a request.
    public init(
        method: XRPCMethod,
        nsid: NSID,
        queryItems: [URLQueryItem] = [],
        headers: HTTPHeaderFields = [:],
        body: Data? = nil,
        contentType: String? = nil,
        serviceURL: URL? = nil,
        timeout: Duration? = nil
    ) {
        self.method = method
        self.nsid = nsid
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
        self.contentType = contentType
        self.serviceURL = serviceURL
        self.timeout = timeout
    }

    /// The path of the endpoint, `/xrpc/<nsid>`.
    public var path: String { "/xrpc/" + nsid.rawValue }

    /// A header's value, looked up without regard to case.
    public func header(_ name: String) -> String? { headers[name] }

    /// Sets a header, replacing any spelling of the same name; `nil` removes it.
    public mutating func setHeader(_ name: String, _ value: String?) { headers[name] = value }

    /// The full URL of the call on `service`: `<service>/xrpc/<nsid>?<query>`, with every query
    /// byte outside the URL-unreserved set percent-encoded (so `+` and `&` in values survive).
    public func url(on service: URL) -> URL? {
        var text = service.absoluteString
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        while text.hasSuffix("/") { text.removeLast() }
        text += "/xrpc/" + Self.percentEncoded(nsid.rawValue)
        if !queryItems.isEmpty {
            text += "?"
            text += queryItems.map { Self.percentEncoded($0.name) + "=" + Self.percentEncoded($0.value ?? "") }
                .joined(separator: "&")
        }
        return URL(string: text)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `text` with every byte but `A-Z a-z 0-9 - . _ ~` written as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        if text.utf8.allSatisfy(\.isUnreservedURICharacter) { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if byte.isUnreservedURICharacter {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Header names whose values are credentials: never printed.
    static let credentialHeaders: Set<String> = ["authorization", "dpop", "cookie", "proxy-authorization"]

    /// The headers with credential values replaced by `<redacted>`.
    var redactedHeaders: HTTPHeaderFields { headers.redacting(Self.credentialHeaders) }
}

extension XRPCRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The method, NSID, query, target service and header names; credentials and body bytes left out.
    public var description: String {
        var text = "\(method.rawValue) \(path)"
        if !queryItems.isEmpty {
            text += "?" + queryItems.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        }
        if let serviceURL { text += " on \(serviceURL.absoluteString)" }
        let headerText = redactedHeaders.sorted { $0.name < $1.name }.map { "\($0.name): \($0.value)" }
        if !headerText.isEmpty { text += " [" + headerText.joined(separator: ", ") + "]" }
        if let body { text += " (\(body.count)-byte body)" }
        return text
    }

    /// The same as ``description``.
    public var debugDescription: String { "XRPCRequest(\(description))" }

    /// A mirror that shows credential headers as `<redacted>` and the body as its size.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method, "nsid": nsid, "queryItems": queryItems, "headers": redactedHeaders.fields,
                "bodySize": body?.count as Any, "contentType": contentType as Any,
                "serviceURL": serviceURL as Any, "timeout": timeout as Any,
            ],
            displayStyle: .struct
        )
    }
}
