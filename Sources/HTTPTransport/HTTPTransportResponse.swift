import Foundation

/// The answer to an ``HTTPTransportRequest``, whatever its status.
public struct HTTPTransportResponse: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    /// The body, at most the request's ``HTTPTransportRequest/maximumResponseSize`` bytes.
    public var body: Data

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// A header's value, looked up without regard to case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
