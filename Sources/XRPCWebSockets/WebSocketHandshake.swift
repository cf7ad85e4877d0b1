import Foundation

/// The opening handshake of RFC 6455 section 4 for a client: the HTTP/1.1 upgrade request and the
/// checks of the server's answer.
package enum WebSocketHandshake {
    /// The GUID that RFC 6455 appends to the key before hashing it.
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The most header bytes read before giving up on an answer.
    static let maximumHeaderSize = 64 * 1024

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes in base64.
    static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` value a server must answer `key` with.
    package static func acceptValue(forKey key: String) -> String {
        Data(SHA1.hash(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    /// The upgrade request's bytes. `headers` are added in their order unless they would replace a
    /// handshake field; a field whose name or value holds a line break is left out.
    static func request(for target: XRPCWebSocketTarget, key: String, headers: HTTPHeaderFields) -> [UInt8] {
        var lines = [
            "GET \(target.requestTarget) HTTP/1.1", "Host: \(target.hostHeader)", "Upgrade: websocket",
            "Connection: Upgrade", "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13",
        ]
        let reserved: Set<String> = [
            "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
        ]
        for (name, value) in headers where !reserved.contains(name.lowercased()) {
            guard !(name + value).unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
            lines.append("\(name): \(value)")
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The status line and header fields of an HTTP response.
    struct Response: Sendable, Hashable {
        var status: Int
        /// Header fields with lower-cased names; repeated fields joined with `, `.
        var headers: [String: String]
        /// The number of bytes the status line and headers took, the blank line included.
        var headerLength: Int
    }

    /// Reads the response head at the start of `bytes`; `nil` when it is not complete yet.
    static func parseResponse(_ bytes: [UInt8]) throws(XRPCWebSocketError) -> Response? {
        guard let end = headerEnd(in: bytes) else {
            guard bytes.count <= maximumHeaderSize else {
                throw XRPCWebSocketError(
                    .handshakeFailed, message: "response headers are longer than \(maximumHeaderSize) bytes")
            }
            return nil
        }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw XRPCWebSocketError(
                .handshakeFailed, message: "not an HTTP/1.1 response: \"\(statusLine.prefix(80))\"")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return Response(status: status, headers: headers, headerLength: end + 4)
    }

    /// Checks that `response` accepts the upgrade for `key`, with no subprotocol or one of those
    /// offered in `headers` (`Sec-WebSocket-Protocol`). A response that does not is an error
    /// carrying its status; `body` is the part of its body already read.
    static func validate(
        _ response: Response, key: String, body: Data, headers: HTTPHeaderFields = [:]
    ) throws(XRPCWebSocketError) {
        guard response.status == 101 else {
            throw XRPCWebSocketError(
                .handshakeFailed, status: response.status, body: body,
                message: "the server answered the upgrade with status \(response.status)")
        }
        guard response.headers["upgrade"]?.lowercased() == "websocket" else {
            throw XRPCWebSocketError(
                .handshakeFailed, status: 101, message: "the 101 response has no \"Upgrade: websocket\" header")
        }
        let connection = response.headers["connection"]?.lowercased().split(separator: ",") ?? []
        guard connection.contains(where: { $0.trimmingCharacters(in: .whitespaces) == "upgrade" }) else {
            throw XRPCWebSocketError(
                .handshakeFailed, status: 101, message: "the 101 response has no \"Connection: Upgrade\" header")
        }
        guard response.headers["sec-websocket-accept"] == acceptValue(forKey: key) else {
            let found = response.headers["sec-websocket-accept"].map { "\"\($0)\"" } ?? "none"
            throw XRPCWebSocketError(
                .handshakeFailed, status: 101,
                message: "Sec-WebSocket-Accept is \(found), expected \"\(acceptValue(forKey: key))\"")
        }
        if let extensions = response.headers["sec-websocket-extensions"], !extensions.isEmpty {
            throw XRPCWebSocketError(
                .handshakeFailed, status: 101,
                message: "the server chose extensions \"\(extensions)\" that were not offered")
        }
        if let chosen = response.headers["sec-websocket-protocol"]?.trimmingCharacters(in: .whitespaces) {
            let offered = headers.values(for: "Sec-WebSocket-Protocol").joined(separator: ", ")
            let names = offered.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard names.contains(chosen) else {
                throw XRPCWebSocketError(
                    .handshakeFailed, status: 101,
                    message: "the server chose the subprotocol \"\(chosen)\", which was not offered"
                        + (offered.isEmpty ? "" : " (offered: \(offered))"))
            }
        }
    }

    /// The offset of `\r\n\r\n` in `bytes`.
    private static func headerEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// The target of a `ws://` or `wss://` URL: host, port, and request target (path and query).
///
/// Shared by every WebSocket transport, including ones in other packages.
public struct XRPCWebSocketTarget: Sendable, Hashable {
    /// The host, without brackets for IPv6.
    public var host: String
    /// The port, 80 or 443 when the URL names none.
    public var port: Int
    /// Whether the connection uses TLS (`wss`, `https`).
    public var secure: Bool
    /// The path and query, percent-encoded as in the URL, `/` when empty.
    public var requestTarget: String
    /// The `Host` header value: the host (IPv6 in brackets) and the port when it is not the default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// Reads a `ws://`, `wss://`, `http://` or `https://` URL.
    public init(_ url: URL) throws(XRPCWebSocketError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { throw XRPCWebSocketError(.unsupportedURL, message: "\(url) has no scheme or host") }
        switch scheme {
        case "ws", "http": secure = false
        case "wss", "https": secure = true
        default: throw XRPCWebSocketError(.unsupportedURL, message: "\(url): scheme \(scheme) is not ws or wss")
        }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? (secure ? 443 : 80)
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        requestTarget = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}

/// The `Sec-WebSocket-Accept` value a server answers `key` with (RFC 6455 section 4.2.2), for code
/// that plays the server's side of the handshake over loopback: the benchmarks' stream server. Not
/// for apps (the client checks the answer itself).
@_spi(Plumbing) public func webSocketAcceptValue(forKey key: String) -> String {
    WebSocketHandshake.acceptValue(forKey: key)
}
