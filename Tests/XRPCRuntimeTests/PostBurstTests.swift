import Foundation
import LoopbackFaultInjection
import LoopbackHTTPServer
import XCTest
import XRPCRuntime

/// Bursts of POSTs sent back to back while the machine is busy (threads spinning beside the test):
/// OAuth-style form POSTs through `URLSessionTransport` and XRPC procedures through `URLSessionAgent`,
/// against a server that answers a request asking to close without saying so and closes the
/// connection a moment later (as Python's `http.server` does on a busy machine), and against one that
/// says `Connection: close`.
///
/// On Linux the transport used to send every POST with `Connection: close` through one shared
/// session: libcurl kept such a connection in its pool (the answer did not say `close`), the next
/// POST took it, found it closed unanswered, and was sent again on a new connection after a body
/// rewind that FoundationNetworking does not do, so its headers went out with `Content-Length` and no
/// body and the call hung until its timeout. Each POST now has a session of its own. Every call here
/// has a 60 s timeout; one not answered within 10 s is a stall, and there must be none.
final class PostBurstTests: XCTestCase {
    // @unchecked Sendable: `posts` and `closes` are read and written under `lock`.
    /// What the server saw: each POST's id (to tell a POST sent twice) and how many asked to close.
    private final class Ledger: @unchecked Sendable {
        private let lock = NSLock()
        private var posts: [Int: Int] = [:]
        private var closes = 0

        var duplicates: [Int] { lock.withLock { posts.filter { $0.value > 1 }.map(\.key).sorted() } }
        var closeRequests: Int { lock.withLock { closes } }

        func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
            guard request.method == "POST" else { return .json(#"{"issuer":"loopback"}"#) }
            let id = Self.id(of: request)
            lock.withLock {
                posts[id, default: 0] += 1
                if request.headers["connection"]?.lowercased() == "close" { closes += 1 }
            }
            return .json(#"{"id":\#(id)}"#)
        }

        /// The `id` field of a form or of a JSON body; -1 if none.
        static func id(of request: LoopbackHTTPServer.Request) -> Int {
            guard request.headers["content-type"] == "application/x-www-form-urlencoded" else {
                return SessionFaultLedger.callID(request)
            }
            let pairs = String(decoding: request.body, as: UTF8.self).split(separator: "&")
            return pairs.first { $0.hasPrefix("id=") }.flatMap { Int($0.dropFirst(3)) } ?? -1
        }
    }

    // @unchecked Sendable: `running` is read and written under `lock`.
    /// Threads that spin until ``stop()``, or for `limit` at most: a busy machine for the test's length.
    private final class CPUHog: @unchecked Sendable {
        private let lock = NSLock()
        private var running = true

        init(threads: Int, limit: Duration) {
            let end = ContinuousClock.now + limit
            for _ in 0..<threads {
                Thread.detachNewThread { [self] in
                    var state: UInt64 = 1
                    while lock.withLock({ running }), ContinuousClock.now < end {
                        for step in 0..<20_000 { state = state &* 6_364_136_223_846_793_005 &+ UInt64(step) }
                    }
                    if state == 0 { print("hog state 0") }
                }
            }
        }

        func stop() { lock.withLock { running = false } }
    }

    static let rounds = 4
    static let lanes = 2
    /// A call not answered within this is a stall: far above a loopback answer, far below the timeout.
    static let stallLimit: Duration = .seconds(10)

    func testBurstsAgainstAServerThatClosesQuietlyNeverStall() async throws {
        try await bursts(quietCloseDelay: 0.05)
    }

    /// The same bursts against a server that says `Connection: close` when it closes (as most do): a
    /// new connection for every POST, opened and closed in quick succession on a busy machine.
    func testBurstsAgainstAServerThatSaysCloseNeverStall() async throws {
        try await bursts(quietCloseDelay: nil)
    }

    /// Runs the bursts of ``lane(_:transport:client:url:)`` from two clients at once against a server
    /// whose quiet close comes `quietCloseDelay` seconds after its answer (`nil`: it says `close`).
    private func bursts(quietCloseDelay: Double?) async throws {
        let ledger = Ledger()
        let server = try LoopbackHTTPServer(quietCloseDelay: quietCloseDelay) { ledger.answer($0) }
        defer { server.stop() }
        let hog = CPUHog(threads: max(2, min(4, ProcessInfo.processInfo.activeProcessorCount)), limit: .seconds(90))
        defer { hog.stop() }
        let transport = URLSessionTransport()
        let client = XRPCClient(agent: URLSessionAgent(serviceURL: server.baseURL, timeout: .seconds(60)))
        let url = server.baseURL
        let outcomes = await withTaskGroup(of: [String].self, returning: [String].self) { group in
            for lane in 0..<Self.lanes {
                group.addTask { await Self.lane(lane, transport: transport, client: client, url: url) }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let stalls = outcomes.filter { $0.hasPrefix("stall") }
        XCTAssertEqual(stalls, [], "calls not answered within \(Self.stallLimit) (their timeout is 60 s)")
        XCTAssertEqual(outcomes.filter { !$0.hasPrefix("stall") && !$0.hasSuffix("success") }, [])
        if stalls.isEmpty { XCTAssertEqual(outcomes.count, Self.lanes * Self.rounds * 6, "every call ran") }
        XCTAssertEqual(ledger.duplicates, [], "POSTs the server received twice")
        #if canImport(FoundationNetworking)
            XCTAssertGreaterThan(ledger.closeRequests, 0, "the POSTs asked to close (what the server answers quietly)")
        #endif
    }

    /// One client's bursts, each as OAuth sends them: a GET, three form POSTs and two XRPC procedures,
    /// each sent as soon as the one before was answered. Labels each call; stops at its first stall.
    private static func lane(_ lane: Int, transport: URLSessionTransport, client: XRPCClient, url: URL) async
        -> [String]
    {
        var outcomes: [String] = []
        for round in 0..<rounds {
            let base = (lane * rounds + round) * 10
            let calls: [@Sendable () async -> String] = [
                { await metadata(transport, url) },
                { await form(transport, url, id: base + 1) },
                { await form(transport, url, id: base + 2) },
                { await form(transport, url, id: base + 3) },
                { await procedure(client, id: base + 4) },
                { await procedure(client, id: base + 5) },
            ]
            for (index, call) in calls.enumerated() {
                guard let outcome = await answered(within: stallLimit, call) else {
                    return outcomes + ["stall: lane \(lane), round \(round), call \(index)"]
                }
                outcomes.append(outcome)
            }
        }
        return outcomes
    }

    /// `call`'s outcome, or `nil` when it was not answered within `limit` (it is cancelled then, which
    /// answers it at once).
    private static func answered(within limit: Duration, _ call: @escaping @Sendable () async -> String) async
        -> String?
    {
        await withTaskGroup(of: String?.self) { group in
            group.addTask { await call() }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    private static func metadata(_ transport: URLSessionTransport, _ url: URL) async -> String {
        let request = HTTPTransportRequest(
            method: "GET", url: url.appendingPathComponent(".well-known/oauth-authorization-server"),
            timeout: .seconds(60))
        do {
            return try await transport.send(request).status == 200 ? "get.success" : "get.status"
        } catch {
            return "get.\(error.code)"
        }
    }

    /// A token request's shape: a form of about 390 bytes with a DPoP header.
    private static func form(_ transport: URLSessionTransport, _ url: URL, id: Int) async -> String {
        let form = "grant_type=refresh_token&refresh_token=\(String(repeating: "r", count: 340))&id=\(id)"
        let request = HTTPTransportRequest(
            method: "POST", url: url.appendingPathComponent("oauth/token"),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "DPoP": "proof-\(id)"],
            body: Data(form.utf8), timeout: .seconds(60))
        do {
            let answer = try await transport.send(request)
            return answer.body == Data(#"{"id":\#(id)}"#.utf8) ? "form.success" : "form.wrongAnswer"
        } catch {
            return "form.\(error.code)"
        }
    }

    private static func procedure(_ client: XRPCClient, id: Int) async -> String {
        do {
            let body = XRPCRawBody(data: Data(#"{"id":\#(id)}"#.utf8), contentType: "application/json")
            let output = try await client.procedure(FaultProcedure.self, parameters: XRPCNoParameters(), input: body)
            return output.unknownFields["id"] == .integer(id) ? "procedure.success" : "procedure.wrongAnswer"
        } catch {
            return "procedure.\(outcomeLabel(error))"
        }
    }
}
