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
    public var headers: [String: String]

    /// Creates a client that sends through `agent`.
    public init(agent: any XRPCAgent, headers: [String: String] = [:]) {
        self.agent = agent
        self.headers = headers
    }

    /// Calls a query: `GET /xrpc/<nsid>?<parameters>`, and reads its output.
    public func query<E: XRPCQuery>(_ endpoint: E.Type, parameters: E.Parameters) async throws -> E.Output {
        let request = XRPCRequest(
            method: .get,
            nsid: E.nsid,
            queryItems: parameters.queryItems,
            headers: headers
        )
        return try await output(E.Output.self, of: request)
    }

    /// Calls a procedure: `POST /xrpc/<nsid>?<parameters>` with the input as body, and reads its output.
    public func procedure<E: XRPCProcedure>(
        _ endpoint: E.Type,
        parameters: E.Parameters,
        input: E.Input
    ) async throws -> E.Output {
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
            throw XRPCError(nsid: E.nsid, status: nil, name: nil, message: "could not encode input: \(error)")
        }
        return try await output(E.Output.self, of: request)
    }

    private func output<Output: XRPCBody>(_ type: Output.Type, of request: XRPCRequest) async throws -> Output {
        let response = try await agent.send(request)
        guard (200..<300).contains(response.status) else {
            throw XRPCError.fromResponse(response, nsid: request.nsid)
        }
        do {
            return try Output(xrpcBody: response.body, contentType: response.header("content-type"))
        } catch {
            throw XRPCError(
                nsid: request.nsid,
                status: response.status,
                name: nil,
                message: "could not read the response: \(error)",
                headers: response.headers
            )
        }
    }
}
