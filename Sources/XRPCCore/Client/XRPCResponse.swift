import Foundation

/// What came back from the server for one XRPC call: status, header fields in order (a repeated
/// name kept once per field), body. The package's one HTTP response, `HTTPResponseMessage`.
public typealias XRPCResponse = HTTPResponseMessage

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
