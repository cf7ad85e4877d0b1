/// What a handler gets for one call: the endpoint's typed parameters and input, already decoded and
/// checked against its lexicon, the caller its authenticator accepted, and the request itself (for
/// headers such as `atproto-accept-labelers`).
public struct XRPCCall<Parameters: Sendable, Input: Sendable, Caller: Sendable>: Sendable {
    /// The query parameters, typed.
    public var parameters: Parameters
    /// The input (`XRPCEmptyBody` for queries and subscriptions).
    public var input: Input
    /// The caller: `Void` without an authenticator, the verified issuer with ``ServiceAuthVerifier``,
    /// an optional one with ``XRPCAuthenticator/optional``.
    public var caller: Caller
    /// The request as received.
    public var request: XRPCServerRequest

    /// Creates a call (the router does; tests of a handler may too).
    public init(parameters: Parameters, input: Input, caller: Caller, request: XRPCServerRequest) {
        self.parameters = parameters
        self.input = input
        self.caller = caller
        self.request = request
    }
}
