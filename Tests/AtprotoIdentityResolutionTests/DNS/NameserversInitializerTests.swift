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
