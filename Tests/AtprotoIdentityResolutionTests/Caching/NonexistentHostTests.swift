import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCRuntime

// @unchecked Sendable: `asked` is read and written under `lock`; `failure` is a `let`.
/// A DNS table that counts the questions asked.
final class CountingDNS: DNSTXTLookup, @unchecked Sendable {
    private let lock = NSLock()
    private var asked = 0
    let failure: DNSError?

    init(failure: DNSError? = nil) { self.failure = failure }

    var count: Int { lock.withLock { asked } }

    func txtRecords(for name: String) async throws -> [String] {
        lock.withLock { asked += 1 }
        if let failure { throw failure }
        return []
    }
}

// @unchecked Sendable: `asked` is read and written under `lock`; `base` is a Sendable `let`.
/// A transport that counts requests and hands them on to another one.
final class CountingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var asked = 0
    let base: any HTTPTransport

    init(_ base: any HTTPTransport) { self.base = base }

    var count: Int { lock.withLock { asked } }

    func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        lock.withLock { asked += 1 }
        return try await base.send(request)
    }
}

/// A handle on a host that does not exist is not found, and cached as such; a network fault is not.
final class NonexistentHostTests: XCTestCase {
    func cache(dns: CountingDNS?, transport: CountingTransport, hostOverrides: HostOverrides = HostOverrides())
        -> CachingIdentityResolver
    {
        let handles = StandardHandleResolver(
            dns: dns.map { DNSHandleResolver(lookup: $0) },
            wellKnown: WellKnownHandleResolver(
                transport: transport, limits: IdentityFetchLimits(timeout: .seconds(5)), hostOverrides: hostOverrides))
        return CachingIdentityResolver(
            wrapping: StandardIdentityResolver(
                handles: handles, dids: PLCDirectoryResolver(directory: URL(string: "http://127.0.0.1:9")!)))
    }

    /// `.invalid` never exists (RFC 6761): the system resolver says so, DNS has no record.
    func testAHandleOnAHostThatDoesNotExistIsNotFoundAndAskedOnce() async throws {
        let dns = CountingDNS()
        let transport = CountingTransport(URLSessionTransport())
        let resolver = cache(dns: dns, transport: transport)
        let handle = ATHandle(rawValue: "nobody-\(UUID().uuidString.prefix(8).lowercased()).invalid")
        for _ in 0..<2 {
            let error = await identityError { _ = try await resolver.resolveHandle(handle) }
            XCTAssertEqual(error?.code, .handleNotFound, "\(String(describing: error))")
        }
        XCTAssertEqual(dns.count, 1, "the second lookup asks no DNS question")
        XCTAssertEqual(transport.count, 1, "the second lookup makes no HTTPS request")
    }

    func testTheTransportReportsAnUnknownHostAsSuch() async throws {
        let url = URL(string: "https://nobody-\(UUID().uuidString.prefix(8).lowercased()).invalid/x")!
        do {
            _ = try await URLSessionTransport().send(
                HTTPTransportRequest(method: "GET", url: url, maximumResponseSize: 10, timeout: .seconds(5)))
            XCTFail("a host that does not exist answered")
        } catch {
            XCTAssertEqual(error.code, .hostNotFound, error.description)
        }
    }

    func testATimeoutOrARefusedConnectionIsAskedAgain() async throws {
        // DNS times out: whatever HTTPS says, the lookup is a passing fault.
        let slowDNS = CountingDNS(failure: DNSError(.timedOut, name: "_atproto.x", message: "no answer"))
        let unknownHost = CountingTransport(URLSessionTransport())
        let timedOut = cache(dns: slowDNS, transport: unknownHost)
        let handle = ATHandle(rawValue: "nobody-\(UUID().uuidString.prefix(8).lowercased()).invalid")
        for _ in 0..<2 {
            let error = await identityError { _ = try await timedOut.resolveHandle(handle) }
            XCTAssertEqual(error?.code, .timedOut, "\(String(describing: error))")
        }
        XCTAssertEqual([slowDNS.count, unknownHost.count], [2, 2])

        // DNS has no record and the host refuses the connection: the host exists, the fault may pass.
        let server = try IdentityTestServer()
        let closed = server.baseURL
        server.server?.stop()
        let dns = CountingDNS()
        let refused = CountingTransport(URLSessionTransport())
        let resolver = cache(dns: dns, transport: refused, hostOverrides: HostOverrides(["alice.test": closed]))
        for _ in 0..<2 {
            let error = await identityError { _ = try await resolver.resolveHandle(ATHandle(rawValue: "alice.test")) }
            XCTAssertEqual(error?.code, .unreachable, "\(String(describing: error))")
        }
        XCTAssertEqual([dns.count, refused.count], [2, 2])
    }

    /// Over HTTPS alone an unknown host may be a DNS outage of the system's resolver: not cached.
    func testAnUnknownHostWithoutDNSResolutionIsNotCached() async throws {
        let transport = CountingTransport(URLSessionTransport())
        let resolver = cache(dns: nil, transport: transport)
        let handle = ATHandle(rawValue: "nobody-\(UUID().uuidString.prefix(8).lowercased()).invalid")
        for _ in 0..<2 {
            let error = await identityError { _ = try await resolver.resolveHandle(handle) }
            XCTAssertEqual(error?.code, .hostNotFound, "\(String(describing: error))")
        }
        XCTAssertEqual(transport.count, 2)
    }
}
