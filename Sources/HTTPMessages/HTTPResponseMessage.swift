import Foundation

/// An HTTP answer: status, header fields in order, body.
///
/// The one response of the package's HTTP layers: the transport returns it
/// (`HTTPTransportResponse`), the XRPC client reads it (`XRPCResponse`) and the XRPC server writes
/// it (`XRPCServerResponse`); those names are this type.
public struct HTTPResponseMessage: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The header fields, in order, a repeated name once per field.
    public var headers: HTTPHeaderFields
    /// The body; empty when there was none.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaderFields = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header field, its name matched without regard to case.
    public func header(_ name: String) -> String? { headers[name] }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
