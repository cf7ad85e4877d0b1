import AtprotoData
import Foundation

/// The server's answer to an XRPC call with an error status (400 or more), as it came.
///
/// A call through ``XRPCClient`` throws it inside its ``XRPCCallError`` (``XRPCCallError/serverError``,
/// the ``XRPCCallError/underlying`` error). ``name`` is the `error` field of the body (`"InvalidSwap"`,
/// `"ExpiredToken"`...); ``code(for:)`` maps it to the endpoint's declared error names.
public struct XRPCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The endpoint's NSID.
    public var nsid: NSID
    /// The HTTP status, or `nil` when an agent reports a refusal without one.
    public var status: Int?
    /// The error name from the body, e.g. `"InvalidSwap"`; `nil` when the body had none.
    public var name: String?
    /// The human-readable message from the body, or a description of what went wrong.
    public var message: String?
    /// The response's header fields, empty when there was no response.
    public var headers: HTTPHeaderFields

    /// Creates an error.
    public init(nsid: NSID, status: Int?, name: String?, message: String?, headers: HTTPHeaderFields = [:]) {
        self.nsid = nsid
        self.status = status
        self.name = name
        self.message = message
        self.headers = headers
    }

    /// The error name as one of the endpoint's declared errors, or its open case.
    public func code<E: XRPCEndpoint>(for endpoint: E.Type) -> E.Error {
        E.Error(name: name ?? "")
    }

    public var description: String {
        var text = "\(nsid) failed"
        if let status { text += " with status \(status)" }
        if let name { text += ": \(name)" }
        if let message { text += (name == nil ? ": " : " - ") + message }
        return text
    }

    /// Builds the error for a response with a status of 400 or more.
    package static func fromResponse(_ response: XRPCResponse, nsid: NSID) -> XRPCError {
        var name: String?
        var message: String?
        if let json = try? JSONValue.parse(response.body), case .object(let fields) = json,
            fields["error"]?.stringValue != nil || fields["message"]?.stringValue != nil
        {
            name = fields["error"]?.stringValue
            message = fields["message"]?.stringValue
        } else if !response.body.isEmpty {
            let kind = response.header("content-type").map { " \($0)" } ?? ""
            message = "unreadable error body (\(response.body.count) bytes\(kind)): \(snippet(of: response.body))"
        }
        return XRPCError(
            nsid: nsid,
            status: response.status,
            name: name,
            message: message,
            headers: response.headers
        )
    }
}

/// The first 200 bytes of `body` as text on one line, control characters shown as spaces,
/// ending with `...` when cut.
func snippet(of body: Data, limit: Int = 200) -> String {
    var text = String(decoding: body.prefix(limit), as: UTF8.self)
    text = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    return body.count > limit ? text + "..." : text
}
