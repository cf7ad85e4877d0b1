import AtprotoData
import Foundation
import XRPCCore

extension XRPCRouter {
    /// Serves a query (`GET`) with no authentication: `call.caller` is `Void`.
    public mutating func query<Endpoint: XRPCQuery>(
        _ endpoint: Endpoint.Type,
        handler:
            @escaping @Sendable (XRPCCall<Endpoint.Parameters, XRPCEmptyBody, Void>) async throws -> Endpoint.Output
    ) {
        query(endpoint, auth: XRPCNoAuthenticator(), handler: handler)
    }

    /// Serves a query (`GET`) for the callers `auth` accepts.
    public mutating func query<Endpoint: XRPCQuery, Auth: XRPCAuthenticator>(
        _ endpoint: Endpoint.Type, auth: Auth,
        handler:
            @escaping @Sendable (XRPCCall<Endpoint.Parameters, XRPCEmptyBody, Auth.Caller>) async throws ->
            Endpoint.Output
    ) {
        let parameters = ParameterDecoder<Endpoint.Parameters>(
            validates: configuration.validatesRequests, maximumItems: configuration.maximumQueryItems)
        let output = OutputEncoder<Endpoint.Output>(validates: configuration.validatesOutput, nsid: Endpoint.nsid)
        let log = configuration.log
        let timeout = configuration.handlerTimeout
        routes[Endpoint.nsid.rawValue] = Route(kind: .query) { request in
            await Self.answer(request, nsid: Endpoint.nsid, log: log, timeout: timeout) {
                () async throws -> XRPCServerResponse in
                let decoded = try parameters.decode(query: request.query)
                let caller = try await auth.authenticate(request, for: Endpoint.nsid)
                let call = XRPCCall(parameters: decoded, input: XRPCEmptyBody(), caller: caller, request: request)
                return try output.response(try await handler(call))
            }
        }
    }

    /// Serves a procedure (`POST`) with no authentication: `call.caller` is `Void`.
    public mutating func procedure<Endpoint: XRPCProcedure>(
        _ endpoint: Endpoint.Type,
        handler:
            @escaping @Sendable (XRPCCall<Endpoint.Parameters, Endpoint.Input, Void>) async throws ->
            Endpoint.Output
    ) {
        procedure(endpoint, auth: XRPCNoAuthenticator(), handler: handler)
    }

    /// Serves a procedure (`POST`) for the callers `auth` accepts.
    public mutating func procedure<Endpoint: XRPCProcedure, Auth: XRPCAuthenticator>(
        _ endpoint: Endpoint.Type, auth: Auth,
        handler:
            @escaping @Sendable (XRPCCall<Endpoint.Parameters, Endpoint.Input, Auth.Caller>) async throws ->
            Endpoint.Output
    ) {
        let parameters = ParameterDecoder<Endpoint.Parameters>(
            validates: configuration.validatesRequests, maximumItems: configuration.maximumQueryItems)
        let input = InputDecoder<Endpoint.Input>(validates: configuration.validatesRequests)
        let output = OutputEncoder<Endpoint.Output>(validates: configuration.validatesOutput, nsid: Endpoint.nsid)
        let log = configuration.log
        let timeout = configuration.handlerTimeout
        routes[Endpoint.nsid.rawValue] = Route(kind: .procedure) { request in
            await Self.answer(request, nsid: Endpoint.nsid, log: log, timeout: timeout) {
                () async throws -> XRPCServerResponse in
                let decoded = try parameters.decode(query: request.query)
                // Credentials before the body: an unauthenticated caller learns nothing about the input rules.
                let caller = try await auth.authenticate(request, for: Endpoint.nsid)
                let body = try input.decode(request)
                let call = XRPCCall(parameters: decoded, input: body, caller: caller, request: request)
                return try output.response(try await handler(call))
            }
        }
    }

    /// Serves a subscription (a WebSocket at `GET`) with no authentication.
    public mutating func subscription<Endpoint: XRPCSubscription>(
        _ endpoint: Endpoint.Type,
        handler:
            @escaping @Sendable (XRPCCall<Endpoint.Parameters, XRPCEmptyBody, Void>) async throws ->
            AsyncThrowingStream<Endpoint.Message, any Error>
    ) {
        subscription(endpoint, auth: XRPCNoAuthenticator(), handler: handler)
    }

    /// Serves a subscription (a WebSocket at `GET`) for the callers `auth` accepts.
    ///
    /// Parameters and credentials are checked before the upgrade (a refusal is an HTTP error answer);
    /// the handler's messages become binary frames (a DAG-CBOR header `{op: 1, t}` and body, the
    /// framing `XRPCEventFrame` reads), and an error it throws becomes the final error frame
    /// (`{op: -1}`): an ``XRPCServerError`` with its name and message (`FutureCursor`,
    /// `ConsumerTooSlow`), anything else as `InternalServerError`.
    ///
    /// Messages are read from the stream only as the socket takes their frames: make the stream with
    /// a bounded buffering policy (`.bufferingOldest(n)`), and end it with `ConsumerTooSlow` when a
    /// producer finds it full, so a slow client costs bounded memory.
    public mutating func subscription<Endpoint: XRPCSubscription, Auth: XRPCAuthenticator>(
        _ endpoint: Endpoint.Type, auth: Auth,
        handler:
            @escaping @Sendable (XRPCCall<Endpoint.Parameters, XRPCEmptyBody, Auth.Caller>) async throws ->
            AsyncThrowingStream<Endpoint.Message, any Error>
    ) {
        let parameters = ParameterDecoder<Endpoint.Parameters>(
            validates: configuration.validatesRequests, maximumItems: configuration.maximumQueryItems)
        let log = configuration.log
        routes[Endpoint.nsid.rawValue] = Route(kind: .subscription) { request in
            do {
                let decoded = try parameters.decode(query: request.query)
                let caller = try await auth.authenticate(request, for: Endpoint.nsid)
                let call = XRPCCall(parameters: decoded, input: XRPCEmptyBody(), caller: caller, request: request)
                let messages = try await handler(call)
                return .eventStream(
                    XRPCEventFrameSequence(
                        nsid: Endpoint.nsid, framing: Endpoint.framing, messages: messages, log: log))
            } catch let error as XRPCServerError {
                return .response(XRPCServerResponse(error: error))
            } catch {
                log?("\(Endpoint.nsid.rawValue): the handler failed for \(request): \(error)")
                return .response(XRPCServerResponse(error: Self.internalError))
            }
        }
    }

    /// Runs `body`, mapping whatever it throws to an error answer.
    static func answer(
        _ request: XRPCServerRequest, nsid: NSID, log: (@Sendable (String) -> Void)?, timeout: Duration?,
        _ body: @escaping @Sendable () async throws -> XRPCServerResponse
    ) async -> XRPCServerReply {
        do {
            guard let timeout else { return .response(try await body()) }
            return .response(try await withDeadline(timeout, body))
        } catch let error as XRPCServerError {
            return .response(XRPCServerResponse(error: error))
        } catch {
            log?("\(nsid.rawValue): the handler failed for \(request): \(error)")
            return .response(XRPCServerResponse(error: internalError))
        }
    }

    /// `body`'s answer, or 503 `NotEnoughResources` when it takes longer than `timeout` (it is then
    /// cancelled).
    static func withDeadline(
        _ timeout: Duration, _ body: @escaping @Sendable () async throws -> XRPCServerResponse
    ) async throws -> XRPCServerResponse {
        try await withThrowingTaskGroup(of: XRPCServerResponse?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw XRPCServerError(.notEnoughResources, message: "the server did not answer within \(timeout)")
            }
            return response
        }
    }

    static let internalError = XRPCServerError(.internalServerError, message: "the server failed to answer")
}

/// Reads a procedure's input per its type: JSON lexicon values from `application/json`, raw bodies
/// with their content type, nothing for endpoints without input.
struct InputDecoder<Input: XRPCBody>: Sendable {
    let validates: Bool

    func decode(_ request: XRPCServerRequest) throws(XRPCServerError) -> Input {
        let contentType = request.header("content-type")
        if Input.self is any LexiconValue.Type {
            guard !request.body.isEmpty else {
                throw XRPCServerError(
                    .invalidRequest, message: "the request has no body; this method takes application/json input")
            }
            let mediaType = contentType.map(Self.mediaType) ?? ""
            guard mediaType == "application/json" else {
                let sent = contentType.map { "Content-Type \($0)" } ?? "no Content-Type"
                throw XRPCServerError(.invalidRequest, message: "the input must be application/json, not \(sent)")
            }
        }
        let input: Input
        do {
            input = try Input(xrpcBody: request.body, contentType: contentType)
        } catch let error as LexiconDecodingError {
            let place = error.path.isEmpty ? "input" : "input." + error.path.joined(separator: ".")
            throw XRPCServerError(.invalidRequest, message: "\(place): \(error.message)")
        } catch let error as JSONParseError {
            throw XRPCServerError(.invalidRequest, message: "the input is not JSON: \(error.message)")
        } catch {
            throw XRPCServerError(.invalidRequest, message: "the input does not decode: \(error)")
        }
        if validates, let validatable = input as? any LexiconValidatable {
            let violations = validatable.lexiconViolations
            if !violations.isEmpty {
                throw XRPCServerError(
                    .invalidRequest,
                    message: violations.prefix(5).map { "input" + $0.path.dropFirst() + ": " + $0.message }
                        .joined(separator: "; "))
            }
        }
        return input
    }

    /// `application/json` from `Application/JSON; charset=utf-8`.
    static func mediaType(_ contentType: String) -> String {
        let base = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return base.trimmingCharacters(in: .whitespaces).lowercased()
    }
}

/// Writes a handler's output: its body and content type, checked against the lexicon when asked.
struct OutputEncoder<Output: XRPCBody>: Sendable {
    let validates: Bool
    let nsid: NSID

    func response(_ output: Output) throws -> XRPCServerResponse {
        if validates, let validatable = output as? any LexiconValidatable {
            let violations = validatable.lexiconViolations
            if !violations.isEmpty {
                throw XRPCServerError(
                    .internalServerError,
                    message:
                        "the server's output breaks the lexicon of \(nsid.rawValue): \(violations[0].path): \(violations[0].message)"
                )
            }
        }
        guard let (data, contentType) = try output.xrpcBody() else { return XRPCServerResponse(status: 200) }
        return XRPCServerResponse(status: 200, headers: ["content-type": contentType], body: data)
    }
}
