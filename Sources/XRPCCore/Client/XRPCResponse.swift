import Foundation

/// What came back from the server for one XRPC call.
public struct XRPCResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// Response headers, with lower-cased names.
    public var headers: [String: String]
    /// The body, empty when there was none.
    public var body: Data

    /// Creates a response; header names are lower-cased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// A header's value, looked up without regard to case.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// A decoded output together with the response it came from, for callers that need its headers
/// (rate limits, `atproto-content-labelers`).
public struct XRPCResult<Output: Sendable>: Sendable {
    /// The decoded output.
    public var output: Output
    /// The response, status, headers and raw body.
    public var response: XRPCResponse

    /// Creates a result.
    public init(output: Output, response: XRPCResponse) {
        self.output = output
        self.response = response
    }
}
