import AtprotoLexicons
import Foundation
import LoopbackHTTPServer
import XCTest
import XRPCTesting

/// Every way a call can fail reaches the one error a generated method throws, `XRPCCallError`, with
/// the code an app switches on and the original error kept as `underlying`.
final class CallErrorTests: XCTestCase {
    /// A call to `putRecord` through `agent`, and the error it threw.
    private static func putRecordError(
        _ agent: any XRPCAgent, repo: String = "did:plc:abc", validatesInput: Bool = true
    ) async -> XRPCCallError? {
        let client = XRPCClient(agent: agent, validatesInput: validatesInput)
        do throws(XRPCCallError) {
            _ = try await client.com.atproto.repo.putRecord(
                repo: ATIdentifier(rawValue: repo), collection: "app.bsky.feed.post", rkey: "3k2aaa",
                record: LexiconUnknownValue(.object(["text": .string("hi")])))
            return nil
        } catch {
            return error
        }
    }

    /// The error of a call to `putRecord` that must fail.
    private func putRecordFailure(
        _ agent: any XRPCAgent, repo: String = "did:plc:abc"
    ) async throws -> XRPCCallError {
        let error = await Self.putRecordError(agent, repo: repo)
        return try XCTUnwrap(error, "the call succeeded")
    }

    private func answer(_ status: Int, _ json: String, headers: HTTPHeaderFields = [:]) -> StubAgent {
        var all = headers
        if !all.contains("content-type") { all["content-type"] = "application/json" }
        return StubAgent { [all] _ in XRPCResponse(status: status, headers: all, body: Data(json.utf8)) }
    }

    func testADeclaredErrorIsTypedByItsEndpoint() async throws {
        let agent = answer(400, #"{"error":"InvalidSwap","message":"the record changed"}"#)
        let error = try await putRecordFailure(agent)
        XCTAssertEqual(error.code, .declaredError)
        XCTAssertEqual(error.declaredError(for: ComAtprotoRepoPutRecord.self), .invalidSwap)
        XCTAssertEqual(error.nsid, ComAtprotoRepoPutRecord.nsid)
        XCTAssertEqual(error.status, 400)
        XCTAssertEqual(error.name, "InvalidSwap")
        XCTAssertEqual(error.message, "the record changed")
        XCTAssertEqual(error.serverError?.name, "InvalidSwap")
        XCTAssertEqual(error.response?.status, 400)
        // Another endpoint declaring the same name does not claim this call's error.
        XCTAssertNil(error.declaredError(for: ComAtprotoRepoCreateRecord.self))
    }

    func testANameTheEndpointDoesNotDeclareIsAServerError() async throws {
        let agent = answer(400, #"{"error":"InvalidRequest","message":"bad collection"}"#)
        let error = try await putRecordFailure(agent)
        XCTAssertEqual(error.code, .serverError)
        XCTAssertEqual(error.name, "InvalidRequest")
        XCTAssertNil(error.declaredError(for: ComAtprotoRepoPutRecord.self))
        XCTAssertEqual(error.serverError?.code(for: ComAtprotoRepoPutRecord.self), .unknown("InvalidRequest"))
    }

    func testAServerFailureWithoutANameIsAServerError() async throws {
        let agent = StubAgent { _ in XRPCResponse(status: 500, body: Data("gateway down".utf8)) }
        let error = try await putRecordFailure(agent)
        XCTAssertEqual(error.code, .serverError)
        XCTAssertEqual(error.status, 500)
        XCTAssertNil(error.name)
        XCTAssertTrue(error.message.contains("gateway down"), error.message)
    }

    func testStatus429IsRateLimitedWithItsHeaders() async throws {
        let agent = answer(429, #"{"error":"RateLimitExceeded"}"#, headers: ["retry-after": "30"])
        let error = try await putRecordFailure(agent)
        XCTAssertEqual(error.code, .rateLimited)
        XCTAssertEqual(error.headers["retry-after"], "30")
        XCTAssertEqual(error.retryAfter, .seconds(30))
    }

    func testATimeoutOfTheTransportIsTimedOut() async throws {
        let agent = StubAgent { request in
            throw XRPCTransportError(.timedOut, nsid: request.nsid, message: "no answer in 30 s")
        }
        let error = try await putRecordFailure(agent)
        XCTAssertEqual(error.code, .timedOut)
        XCTAssertNil(error.status)
        XCTAssertEqual((error.underlying as? XRPCTransportError)?.code, .timedOut)
    }

    func testACancelledCallIsCancelled() async throws {
        let call = Task<XRPCCallError?, Never> {
            let agent = StubAgent { _ in
                try await Task.sleep(for: .seconds(600))
                return XRPCResponse(status: 200)
            }
            do throws(XRPCCallError) {
                _ = try await XRPCClient(agent: agent).app.bsky.feed.getTimeline()
                return nil
            } catch {
                return error
            }
        }
        call.cancel()
        let value = await call.value
        let error = try XCTUnwrap(value)
        XCTAssertEqual(error.code, .cancelled)
        XCTAssertTrue(error.underlying is CancellationError, "\(error.underlying)")
    }

    func testARefusedConnectionIsCannotConnect() async throws {
        let server = try LoopbackHTTPServer { _ in .init(status: 200) }
        let url = server.baseURL
        server.stop()
        let error = try await putRecordFailure(URLSessionAgent(serviceURL: url))
        XCTAssertEqual(error.code, .cannotConnect, error.description)
        XCTAssertEqual((error.underlying as? XRPCTransportError)?.service, url.absoluteString)
    }

    func testAConnectionClosedWithoutAnswerIsConnectionLost() async throws {
        let server = try LoopbackHTTPServer { _ in .init(dropConnection: true) }
        defer { server.stop() }
        let error = try await putRecordFailure(URLSessionAgent(serviceURL: server.baseURL))
        XCTAssertEqual(error.code, .connectionLost, error.description)
    }

    func testASessionThatEndedIsSessionEnded() async throws {
        // Every call and the refresh are refused as expired, and there is no way to log in again.
        let pds = answer(400, #"{"error":"ExpiredToken","message":"expired"}"#)
        let service = try XCTUnwrap(URL(string: "https://pds.example"))
        let archive = PasswordSessionArchive(
            service: service, did: "did:plc:abc", handle: "alice.test", accessToken: XRPCSessionToken("access"),
            refreshToken: XRPCSessionToken("refresh"))
        let session = PasswordSession(restoring: archive, agent: pds)
        let first = try await putRecordFailure(session)
        XCTAssertEqual(first.code, .sessionEnded, first.description)
        XCTAssertEqual((first.underlying as? PasswordSessionError)?.code, .sessionEnded)
        // Then every call fails fast, before sending.
        let sent = pds.requests.count
        let next = try await putRecordFailure(session)
        XCTAssertEqual(next.code, .sessionEnded)
        XCTAssertEqual(pds.requests.count, sent)
    }

    func testAnInputThatBreaksItsLexiconIsInvalidInputAndNothingIsSent() async throws {
        let agent = answer(200, #"{"uri":"at://did:plc:abc/app.bsky.feed.post/3k2aaa","cid":"bafy"}"#)
        let error = try await putRecordFailure(agent, repo: "not an identifier")
        XCTAssertEqual(error.code, .invalidInput)
        let violations = try XCTUnwrap(error.underlying as? LexiconValidationError).violations
        XCTAssertTrue(violations.contains { $0.path.contains("repo") }, "\(violations)")
        XCTAssertTrue(agent.requests.isEmpty)
        // Without validation the same input is sent.
        let unchecked = await Self.putRecordError(agent, repo: "not an identifier", validatesInput: false)
        XCTAssertNil(unchecked)
        XCTAssertEqual(agent.requests.count, 1)
    }

    func testASuccessAnswerThatIsNotTheOutputIsInvalidOutput() async throws {
        let agent = answer(200, #"{"uri": 5}"#)
        let error = try await putRecordFailure(agent)
        XCTAssertEqual(error.code, .invalidOutput)
        XCTAssertEqual(error.status, 200)
        XCTAssertEqual(error.response?.status, 200)
        XCTAssertEqual((error.underlying as? LexiconDecodingError)?.path.first, "uri")
    }

    func testAnInputThatCannotBeEncodedIsEncodingFailed() async throws {
        let agent = answer(200, "{}")
        do throws(XRPCCallError) {
            _ = try await XRPCClient(agent: agent).procedure(Unencodable.self, parameters: .init(), input: .init())
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.code, .encodingFailed)
            XCTAssertTrue(error.underlying is Unencodable.Refusal)
        }
        XCTAssertTrue(agent.requests.isEmpty)
    }

    func testAnAgentsOwnErrorIsAgentFailedWithTheError() async throws {
        let agent = StubAgent { _ in throw Unencodable.Refusal() }
        let error = try await putRecordFailure(agent)
        XCTAssertEqual(error.code, .agentFailed)
        XCTAssertTrue(error.underlying is Unencodable.Refusal)
    }

    func testOneCatchHandlesEveryCauseByItsCode() async throws {
        let causes: [(StubAgent, String)] = [
            (answer(400, #"{"error":"InvalidSwap"}"#), "refused: InvalidSwap"),
            (StubAgent { throw XRPCTransportError(.timedOut, nsid: $0.nsid, message: "slow") }, "retry later"),
            (StubAgent { _ in throw PasswordSessionError(.sessionEnded, message: "signed out") }, "sign in"),
        ]
        for (agent, expected) in causes {
            let error = try await putRecordFailure(agent)
            let shown: String
            if let declared = error.declaredError(for: ComAtprotoRepoPutRecord.self) {
                shown = "refused: \(declared.name)"
            } else {
                switch error.code {
                case .timedOut, .cannotConnect, .connectionLost: shown = "retry later"
                case .sessionEnded: shown = "sign in"
                default: shown = "failed"
                }
            }
            XCTAssertEqual(shown, expected)
        }
    }
}

/// A procedure whose input never encodes.
private enum Unencodable: XRPCProcedure {
    static var nsid: NSID { "com.example.unencodable" }
    typealias Parameters = XRPCNoParameters
    typealias Error = XRPCUndeclaredError
    typealias Output = XRPCEmptyBody

    struct Refusal: Swift.Error {}

    struct Input: XRPCBody {
        init() {}
        init(xrpcBody body: Data, contentType: String?) throws {}
        func xrpcBody() throws -> (data: Data, contentType: String)? { throw Refusal() }
    }
}
