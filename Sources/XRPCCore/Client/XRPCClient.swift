import Foundation

/// Calls XRPC endpoints through an agent.
///
/// Generated code hangs typed methods off it by NSID segments
/// (`client.app.bsky.feed.getTimeline(limit: 50)`); ``query(_:parameters:)`` and
/// ``procedure(_:parameters:input:)`` are the generic calls behind them.
public struct XRPCClient: Sendable {
    /// The agent that sends every request.
    public let agent: any XRPCAgent
    /// Headers added to every request (a call's own headers win).
    public var headers: HTTPHeaderFields
    /// Whether a procedure checks its input against its lexicon before sending it (the default).
    ///
    /// An invalid input then throws ``XRPCCallError/Code/invalidInput`` (its underlying error the
    /// `LexiconValidationError`) and nothing is sent. Turn it off to
    /// send data as it is, for example to test how a server handles invalid input.
    public var validatesInput: Bool
    /// Where and how subscriptions (event streams) connect; see ``subscribe(_:parameters:)``.
    public var eventStreams = XRPCEventStreamOptions()
    /// The latest `RateLimit-*` figures of each service this client's calls reached, success or
    /// refusal; shared by the client's copies. Replace it to get a handler called with each reading.
    public var rateLimits = XRPCRateLimitMonitor()

    /// Creates a client that sends through `agent`.
    ///
    /// - Parameters:
    ///   - agent: Sends every request: a transport, or a session wrapping one.
    ///   - headers: Headers added to every request.
    ///   - validatesInput: Whether procedures check their input before sending it.
    public init(agent: any XRPCAgent, headers: HTTPHeaderFields = [:], validatesInput: Bool = true) {
        self.agent = agent
        self.headers = headers
        self.validatesInput = validatesInput
    }

    /// Calls a query: `GET /xrpc/<nsid>?<parameters>`, and reads its output.
    ///
    /// - Throws: ``XRPCCallError``, whatever failed; its ``XRPCCallError/code`` says what.
    public func query<E: XRPCQuery>(
        _ endpoint: E.Type,
        parameters: E.Parameters
    ) async throws(XRPCCallError) -> E.Output {
        try await queryResult(endpoint, parameters: parameters).output
    }

    /// Calls a query and returns its output with the response (headers such as rate limits and
    /// `atproto-content-labelers`).
    ///
    /// - Throws: ``XRPCCallError``, whatever failed; its ``XRPCCallError/code`` says what.
    public func queryResult<E: XRPCQuery>(
        _ endpoint: E.Type,
        parameters: E.Parameters
    ) async throws(XRPCCallError) -> XRPCResult<E.Output> {
        let request = XRPCRequest(
            method: .get,
            nsid: E.nsid,
            queryItems: parameters.queryItems,
            headers: headers
        )
        return try await output(E.Output.self, of: request, to: endpoint)
    }

    /// Calls a procedure: `POST /xrpc/<nsid>?<parameters>` with the input as body, and reads its output.
    ///
    /// Unless ``validatesInput`` is off, a JSON input is first checked against the lexicon, and an
    /// invalid one throws ``XRPCCallError/Code/invalidInput`` without sending anything.
    ///
    /// - Throws: ``XRPCCallError``, whatever failed; its ``XRPCCallError/code`` says what.
    public func procedure<E: XRPCProcedure>(
        _ endpoint: E.Type,
        parameters: E.Parameters,
        input: E.Input
    ) async throws(XRPCCallError) -> E.Output {
        try await procedureResult(endpoint, parameters: parameters, input: input).output
    }

    /// Calls a procedure and returns its output with the response.
    ///
    /// - Throws: ``XRPCCallError``, whatever failed; its ``XRPCCallError/code`` says what.
    public func procedureResult<E: XRPCProcedure>(
        _ endpoint: E.Type,
        parameters: E.Parameters,
        input: E.Input
    ) async throws(XRPCCallError) -> XRPCResult<E.Output> {
        if validatesInput, let checked = input as? any LexiconValidatable {
            do {
                try checked.validate()
            } catch {
                throw XRPCCallError(
                    .invalidInput, nsid: E.nsid, message: "the input breaks its lexicon: \(error)", underlying: error)
            }
        }
        var request = XRPCRequest(
            method: .post,
            nsid: E.nsid,
            queryItems: parameters.queryItems,
            headers: headers
        )
        do {
            if let body = try input.xrpcBody() {
                request.body = body.data
                request.contentType = body.contentType
            }
        } catch {
            throw XRPCCallError(
                .encodingFailed, nsid: E.nsid, message: "could not encode the input: \(error)", underlying: error)
        }
        return try await output(E.Output.self, of: request, to: endpoint)
    }

    private func output<Output: XRPCBody, E: XRPCEndpoint>(
        _ type: Output.Type,
        of request: XRPCRequest,
        to endpoint: E.Type
    ) async throws(XRPCCallError) -> XRPCResult<Output> {
        let response: XRPCResponse
        do {
            response = try await agent.send(request)
        } catch {
            throw XRPCCallError.classifying(error, of: endpoint)
        }
        await rateLimits.record(response, of: request, agent: agent)
        guard response.isSuccess else {
            throw XRPCCallError.answered(
                XRPCError.fromResponse(response, nsid: request.nsid), response: response,
                declaredNames: E.Error.declaredNames)
        }
        do {
            let output = try Output(xrpcBody: response.body, contentType: response.header("content-type"))
            return XRPCResult(output: output, response: response)
        } catch {
            throw XRPCCallError(
                .invalidOutput, nsid: request.nsid, status: response.status, response: response,
                message: "the answer is not the endpoint's output: \(error)", underlying: error)
        }
    }
}
