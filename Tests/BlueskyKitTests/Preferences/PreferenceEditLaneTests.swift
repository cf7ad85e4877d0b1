// Overlapping preference edits of one account, against an in-memory preferences endpoint whose read
// takes a moment (as a server's does): every edit is kept, whichever client or agent made it.

import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCRuntime
import XRPCTesting

@testable import BlueskyPreferences

final class PreferenceEditLaneTests: XCTestCase {
    /// The preferences of one account as a server keeps them: `putPreferences` replaces the list.
    actor PreferenceServer {
        private var stored = Data(#"{"preferences": []}"#.utf8)
        private(set) var writes = 0

        func answer(_ request: XRPCRequest) async throws -> XRPCResponse {
            switch request.nsid.rawValue {
            case "app.bsky.actor.getPreferences":
                let body = stored
                // The read is answered as of now; its bytes arrive a moment later.
                try await Task.sleep(for: .milliseconds(2))
                return XRPCResponse(status: 200, headers: ["content-type": "application/json"], body: body)
            case "app.bsky.actor.putPreferences":
                stored = request.body ?? Data()
                writes += 1
                return XRPCResponse(status: 200, headers: [:], body: Data())
            default:
                return XRPCResponse(status: 400, headers: [:], body: Data(#"{"error": "InvalidRequest"}"#.utf8))
            }
        }

        func agent() -> StubAgent {
            StubAgent { request in try await self.answer(request) }
        }
    }

    /// A session stand-in: an agent that names its account.
    struct AccountAgent: XRPCAccountAgent {
        let did: DID
        let inner: StubAgent
        func send(_ request: XRPCRequest) async throws -> XRPCResponse { try await inner.send(request) }
        func defaultServiceURL() async -> URL? { nil }
        func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
            [:]
        }
        func accountDID() async -> DID? { did }
    }

    private static func labeler(_ index: Int) -> DID { DID(rawValue: "did:plc:labeler\(index)") }

    /// `count` concurrent edits, each adding its own labeler through the client `clients` makes for it.
    private func editConcurrently(count: Int, clients: @escaping @Sendable (Int) -> XRPCClient) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await clients(index).updateBlueskyPreferences { $0.addLabeler(Self.labeler(index)) }
                }
            }
            try await group.waitForAll()
        }
    }

    func testConcurrentEditsThroughOneAgentAreAllKept() async throws {
        let server = PreferenceServer()
        let agent = await server.agent()
        try await editConcurrently(count: 16) { _ in XRPCClient(agent: agent) }
        let labelers = try await XRPCClient(agent: agent).blueskyPreferences().labelers
        XCTAssertEqual(Set(labelers), Set((0..<16).map(Self.labeler)), "an overlapping edit was lost")
        let writes = await server.writes
        XCTAssertEqual(writes, 16)
        XCTAssertEqual(AccountEditLanes.shared.busyLanes, 0)
    }

    func testTwoSessionsOfOneAccountShareALane() async throws {
        let server = PreferenceServer()
        let stub = await server.agent()
        // Two agents (values, not one object) acting as one account, and a wrapper of one of them.
        let first = AccountAgent(did: "did:plc:alice", inner: stub)
        let second = AccountAgent(did: "did:plc:alice", inner: stub)
        try await editConcurrently(count: 12) { index in
            switch index % 3 {
            case 0: XRPCClient(agent: first)
            case 1: XRPCClient(agent: second)
            default: XRPCClient(agent: RetryingAgent(wrapping: first))
            }
        }
        let labelers = try await XRPCClient(agent: first).blueskyPreferences().labelers
        XCTAssertEqual(Set(labelers), Set((0..<12).map(Self.labeler)), "an overlapping edit was lost")
    }

    func testAgentsThatCannotNameTheirAccountStillKeepEveryEdit() async throws {
        let server = PreferenceServer()
        let stub = await server.agent()
        // Value wrappers with no account: each client's agent is a different value.
        try await editConcurrently(count: 8) { _ in XRPCClient(agent: RetryingAgent(wrapping: stub)) }
        let labelers = try await XRPCClient(agent: stub).blueskyPreferences().labelers
        XCTAssertEqual(Set(labelers), Set((0..<8).map(Self.labeler)))
    }

    func testAnEditCancelledWhileWaitingNeverRuns() async throws {
        let lanes = AccountEditLanes()
        let release = AsyncStream<Void>.makeStream()
        let started = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await lanes.enter("account did:plc:x")
            defer { lanes.leave("account did:plc:x") }
            started.continuation.yield()
            for await _ in release.stream { break }
        }
        for await _ in started.stream { break }
        let ran = LockedFlag()
        let waiter = Task {
            try await lanes.enter("account did:plc:x")
            defer { lanes.leave("account did:plc:x") }
            ran.set()
        }
        // Let the waiter queue up behind the holder, then cancel it.
        while lanes.waiting(on: "account did:plc:x") == 0 { await Task.yield() }
        waiter.cancel()
        do {
            try await waiter.value
            XCTFail("a cancelled waiter must throw")
        } catch is CancellationError {}
        release.continuation.yield()
        try await holder.value
        XCTAssertFalse(ran.value, "the cancelled edit ran")
        XCTAssertEqual(lanes.busyLanes, 0)
    }
}

// @unchecked Sendable: `stored` is read and written only under `lock`.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool { lock.withLock { stored } }
    func set() { lock.withLock { stored = true } }
}
