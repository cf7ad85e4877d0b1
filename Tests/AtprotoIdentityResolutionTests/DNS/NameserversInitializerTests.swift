import AtprotoIdentityResolution
import Foundation
import XCTest

/// The public way to name nameservers (the DNS client itself is package-internal): the resolvers'
/// `nameservers:` initializers ask exactly the servers given.
final class NameserversInitializerTests: XCTestCase {
    private func didServer() throws -> DNSTestServer {
        try startDNSServer { query in
            [DNSTestMessage.answer(to: query, answers: [DNSTestMessage.txt(["did=did:plc:ewvi7nxzyoun6zhxrhs64oiz"])])]
        }
    }

    func testADNSHandleResolverAsksTheNameserversGiven() async throws {
        let server = try didServer()
        let did = try await DNSHandleResolver(nameservers: [server.nameserver]).resolveHandle(
            ATHandle(rawValue: "Alice.Test"))
        XCTAssertEqual(did.rawValue, "did:plc:ewvi7nxzyoun6zhxrhs64oiz")
        XCTAssertEqual(server.queries.map(\.name), ["_atproto.alice.test"])
    }

    func testTheStandardResolverAsksTheNameserversGivenForHandles() async throws {
        let server = try didServer()
        let resolver = StandardIdentityResolver(nameservers: [server.nameserver], handlePolicy: .dnsFirst)
        let did = try await resolver.resolveHandle(ATHandle(rawValue: "bob.test"))
        XCTAssertEqual(did.rawValue, "did:plc:ewvi7nxzyoun6zhxrhs64oiz")
        XCTAssertEqual(server.queries.map(\.name), ["_atproto.bob.test"])
    }
}

/// The DNS limits an app sets with named nameservers: how many rounds a silent server is asked.
final class DNSQueryLimitsTests: XCTestCase {
    /// A server that reads every query and never answers.
    private func silentServer() throws -> DNSTestServer {
        try startDNSServer { _ in [] }
    }

    func testAHandleResolverAsksAsManyRoundsAsItsLimitsSay() async throws {
        for attempts in [1, 3] {
            let server = try silentServer()
            let resolver = DNSHandleResolver(
                nameservers: [server.nameserver], limits: DNSQueryLimits(timeout: .milliseconds(50), attempts: attempts)
            )
            do {
                _ = try await resolver.resolveHandle(ATHandle(rawValue: "silent.test"))
                XCTFail("a server that never answers cannot resolve a handle")
            } catch {
                XCTAssertEqual(server.queries.count, attempts, "rounds asked with attempts \(attempts)")
            }
        }
    }

    func testTheStandardAndLexiconResolversTakeTheLimits() async throws {
        let server = try silentServer()
        let resolver = StandardIdentityResolver(
            nameservers: [server.nameserver], dnsLimits: DNSQueryLimits(timeout: .milliseconds(50), attempts: 1),
            transport: RefusingTransport(), handlePolicy: .dnsFirst)
        _ = try? await resolver.resolveHandle(ATHandle(rawValue: "silent.test"))
        XCTAssertEqual(server.queries.count, 1)
    }

    func testLimitsAreBroughtIntoTheirRange() {
        XCTAssertEqual(
            DNSQueryLimits(timeout: .zero, attempts: 0), DNSQueryLimits(timeout: .milliseconds(1), attempts: 1))
        XCTAssertEqual(DNSQueryLimits(attempts: 1_000).attempts, 10)
        XCTAssertEqual(DNSQueryLimits(), DNSQueryLimits(timeout: .seconds(2), attempts: 2))
    }
}

/// A transport with no network: every request is refused at once.
private struct RefusingTransport: HTTPTransport {
    func send(_ request: HTTPTransportRequest) async throws(HTTPTransportError) -> HTTPTransportResponse {
        throw HTTPTransportError(.cannotConnect, request: request, message: "no network in this test")
    }
}
