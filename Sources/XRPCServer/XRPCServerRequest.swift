import AtprotoData
import Foundation

/// One HTTP request as the server core sees it, whatever HTTP server received it.
///
/// An adapter (the `XRPCHummingbird` trait's, or an app's own) fills it from its server's request and
/// hands it to ``XRPCRouter/respond(to:)``. Its `description` never shows credential headers or the
/// body's bytes, so a request can be logged.
public struct XRPCServerRequest: Sendable {
    /// The HTTP method as sent (`GET`, `POST`, `HEAD`...).
    public var method: String
    /// The path without the query: `/xrpc/app.bsky.feed.getFeedSkeleton`.
    public var path: String
    /// The query string as sent, without the `?` (percent-encoded), or empty.
    public var query: String
    /// The header fields, in order, a repeated name once per field.
    public var headers: HTTPHeaderFields
    /// The body's bytes; empty when there is none.
    public var body: Data

    /// Creates a request.
    public init(method: String, path: String, query: String = "", headers: HTTPHeaderFields = [:], body: Data = Data())
    {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Splits a request target (`/xrpc/x.y.z?limit=5`) into path and query.
    public init(method: String, target: String, headers: HTTPHeaderFields = [:], body: Data = Data()) {
        // The byte `?`: looking for the character took grapheme breaking over the whole target.
        if let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            self.init(
                method: method, path: String(target[..<mark]), query: String(target[target.index(after: mark)...]),
                headers: headers, body: body)
        } else {
            self.init(method: method, path: target, headers: headers, body: body)
        }
    }

    /// A header's value, looked up without regard to case.
    public func header(_ name: String) -> String? { headers[name] }
}

extension XRPCServerRequest: CustomStringConvertible {
    /// The method, path, query and header names; credential values and the body's bytes left out.
    public var description: String {
        var text = "\(method) \(path)"
        if !query.isEmpty { text += "?" + query }
        let names = headers.redacting(Self.credentialHeaders).map { "\($0.name.lowercased()): \($0.value)" }
        if !names.isEmpty { text += " [" + names.joined(separator: ", ") + "]" }
        if !body.isEmpty { text += " (\(body.count)-byte body)" }
        return text
    }

    /// Header names whose values are credentials: never printed.
    static let credentialHeaders: Set<String> = ["authorization", "dpop", "cookie", "proxy-authorization"]
}

/// The answer to one request: status, header fields in order (a repeated name once per field) and
/// body, for the adapter to send. The package's one HTTP response, `HTTPResponseMessage`.
public typealias XRPCServerResponse = HTTPResponseMessage

extension HTTPResponseMessage {
    /// The `Content-Type`, when there is one.
    public var contentType: String? { headers["content-type"] }

    /// An error answer: `{"error": name, "message": message}` as JSON, with the error's status and
    /// headers.
    public init(error: XRPCServerError) {
        var fields: [String: JSONValue] = ["error": .string(error.code.rawValue)]
        if !error.message.isEmpty { fields["message"] = .string(error.message) }
        var headers = error.headers
        headers["content-type"] = "application/json; charset=utf-8"
        self.init(status: error.status, headers: headers, body: JSONValue.object(fields).serialized())
    }
}
