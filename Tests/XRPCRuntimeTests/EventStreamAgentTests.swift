import Foundation
import XCTest

@testable import XRPCAgents
@testable import XRPCCore
@testable import XRPCWebSockets

/// Event streams through any agent: the agent names the service and adds the upgrade's credentials.
final class EventStreamAgentTests: XCTestCase {
    // @unchecked Sendable: `seen` is read and written under `lock`.
    /// The header fields (lower-cased names) of the upgrade requests a server saw, in order.
    private final class Upgrades: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [[String: String]] = []
        /// Records one upgrade; returns its index.
        func append(_ headers: [String: String]) -> Int {
            lock.withLock {
                seen.append(headers)
                return seen.count - 1
            }
        }
        var all: [[String: String]] { lock.withLock { seen } }
    }

    /// A server that records each upgrade and answers it with `answer` (given the connection's
    /// index), then sends one tick and closes.
    private func server(
        _ upgrades: Upgrades, answer: @escaping @Sendable (Int, TestWebSocketPeer) -> Bool = { _, _ in true }
    ) throws -> TestWebSocketServer {
        try TestWebSocketServer { peer in
            let index = upgrades.append(peer.headers)
            guard answer(index, peer) else { return }
            peer.acceptUpgrade()
            peer.sendBinary(Array(Frames.frame(["seq": .integer(7 + index)])))
            peer.sendClose(1000)
            _ = try peer.readClose()
        }
    }

    private func drain(_ stream: XRPCEventStream<TestStream>) async -> ([Int], XRPCEventStreamError?) {
        var seqs: [Int] = []
        do {
            for try await message in stream { seqs.append(message.seq ?? -1) }
            return (seqs, nil)
        } catch {
            return (seqs, error)
        }
    }

    func testARetryingAgentStreamsFromTheServiceOfTheTransportItWrapsWithItsHeaders() async throws {
        let upgrades = Upgrades()
        let server = try server(upgrades)
        let service = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)/"))
        let agent = RetryingAgent(wrapping: URLSessionAgent(serviceURL: service, headers: ["User-Agent": "test-app/1"]))
        let defaultService = await agent.defaultServiceURL()
        XCTAssertEqual(defaultService, service)
        let (seqs, error) = await drain(
            XRPCClient(agent: agent).subscribe(TestStream.self, parameters: .init(cursor: 2)))
        XCTAssertNil(error)
        XCTAssertEqual(seqs, [7])
        XCTAssertEqual(server.requestTargets, ["/xrpc/com.example.stream?cursor=2"])
        XCTAssertEqual(upgrades.all.first?["user-agent"], "test-app/1")
    }

    /// A session logged in through `pds` (FakePDS), restored with `pdsEndpoint` as its PDS.
    private func session(_ pds: FakePDS, service: URL? = FakePDS.service, pdsEndpoint: URL?) async throws
        -> PasswordSession
    {
        let service = try XCTUnwrap(service)
        let login = PasswordSession(service: service, agent: pds.agent)
        var archive = try await login.login(ATIdentifier(rawValue: pds.handle), password: pds.password)
        archive.pdsEndpoint = pdsEndpoint
        return PasswordSession(restoring: archive, agent: pds.agent)
    }

    func testAPasswordSessionStreamsFromItsPDSWithItsAccessToken() async throws {
        let upgrades = Upgrades()
        let server = try server(upgrades)
        let pds = FakePDS()
        let session = try await session(pds, pdsEndpoint: URL(string: "http://127.0.0.1:\(server.port)"))
        let token = await session.archive?.accessToken.value
        let (seqs, error) = await drain(XRPCClient(agent: session).subscribe(TestStream.self, parameters: .init()))
        XCTAssertNil(error)
        XCTAssertEqual(seqs, [7])
        XCTAssertEqual(server.requestTargets, ["/xrpc/com.example.stream"])
        XCTAssertEqual(upgrades.all.first?["authorization"], "Bearer \(token ?? "?")")
    }

    func testAStreamOnAnotherHostGetsNoCredentialsFromTheSession() async throws {
        let upgrades = Upgrades()
        let server = try server(upgrades)
        let session = try await session(FakePDS(), pdsEndpoint: FakePDS.pds)
        var client = XRPCClient(agent: session)
        client.eventStreams.serviceURL = URL(string: "ws://127.0.0.1:\(server.port)")
        let (seqs, error) = await drain(client.subscribe(TestStream.self, parameters: .init()))
        XCTAssertNil(error)
        XCTAssertEqual(seqs, [7])
        XCTAssertEqual(upgrades.all.count, 1)
        XCTAssertNil(upgrades.all.first?["authorization"], "a relay never sees the session's token")
    }

    func testAnUpgradeRefusedForAnExpiredTokenIsRetriedOnceWithTheRefreshedToken() async throws {
        let upgrades = Upgrades()
        let server = try server(upgrades) { index, peer in
            guard index == 0 else { return true }
            peer.refuseUpgrade(status: 400, json: #"{"error":"ExpiredToken","message":"Token has expired"}"#)
            return false
        }
        let pds = FakePDS()
        let local = try XCTUnwrap(URL(string: "http://127.0.0.1:\(server.port)"))
        let session = try await session(pds, service: local, pdsEndpoint: local)
        let before = await session.archive?.accessToken.value
        let (seqs, error) = await drain(XRPCClient(agent: session).subscribe(TestStream.self, parameters: .init()))
        XCTAssertNil(error)
        XCTAssertEqual(seqs, [8], "the second connection delivers")
        XCTAssertEqual(pds.count("com.atproto.server.refreshSession"), 1)
        let after = await session.archive?.accessToken.value
        XCTAssertNotEqual(before, after)
        XCTAssertEqual(upgrades.all.map { $0["authorization"] }, ["Bearer \(before ?? "?")", "Bearer \(after ?? "?")"])
    }

    /// An app's agent (an OAuth session, say) with its own service and credentials, which cannot renew them.
    private struct AppAgent: XRPCAgent {
        var service: URL?
        func send(_ request: XRPCRequest) async throws -> XRPCResponse { XRPCResponse(status: 500) }
        func defaultServiceURL() async -> URL? { service }
        func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
            ["Authorization": "DPoP token", "DPoP": "proof for \(url.absoluteString)"]
        }
    }

    func testAnAppAgentNamesTheServiceAndARefusalEndsTheStreamWhenItsCredentialsDoNotChange() async throws {
        let refusal = Data(#"{"error":"AuthenticationRequired","message":"no"}"#.utf8)
        let transport = ScriptedTransport([
            .failure(XRPCWebSocketError(.handshakeFailed, status: 401, body: refusal, message: "status 401")),
            .failure(XRPCWebSocketError(.handshakeFailed, status: 401, body: refusal, message: "status 401")),
            .connection([.message(Frames.tick(1))]),
        ])
        var client = XRPCClient(agent: AppAgent(service: URL(string: "https://pds.example.com")))
        client.eventStreams.transport = transport
        client.eventStreams.headers = ["X-App": "mine"]
        let (seqs, error) = await drain(client.subscribe(TestStream.self, parameters: .init(cursor: 4)))
        XCTAssertEqual(seqs, [])
        XCTAssertEqual(error?.code, .rejected)
        XCTAssertEqual(error?.isUnauthorized, true)
        XCTAssertEqual(error?.name, "AuthenticationRequired")
        XCTAssertEqual(
            transport.connectedURLs.map(\.absoluteString),
            ["wss://pds.example.com/xrpc/com.example.stream?cursor=4"],
            "the agent answered the refusal with the same credentials: no second try")
        XCTAssertEqual(
            transport.connectedHeaders.first,
            [
                "Authorization": "DPoP token",
                "DPoP": "proof for wss://pds.example.com/xrpc/com.example.stream?cursor=4", "X-App": "mine",
            ],
            "the agent's fields in its order, then the app's")
    }

    func testAnAgentThatNamesNoServiceStillFailsClearly() async throws {
        let (_, error) = await drain(
            XRPCClient(agent: AppAgent(service: nil)).subscribe(TestStream.self, parameters: .init()))
        XCTAssertEqual(error?.code, .invalidService)
        XCTAssertTrue(error?.message.contains("defaultServiceURL") == true, error?.message ?? "")
    }
}
