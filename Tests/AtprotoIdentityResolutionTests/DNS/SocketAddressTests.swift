import SocketAddresses
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The package's one socket address type (SocketAddresses), as DNS, the WebSocket client, the OAuth
/// loopback redirect and the loopback test server use it.
final class SocketAddressTests: XCTestCase {
    func testLiteralsKeepTheirFamilyPortAndText() throws {
        let ipv4 = try XCTUnwrap(SocketAddress(literal: "192.0.2.7", port: 5353))
        XCTAssertEqual(ipv4.family, AF_INET)
        XCTAssertEqual(ipv4.port, 5353)
        XCTAssertEqual(ipv4.numericHost, "192.0.2.7")
        let ipv6 = try XCTUnwrap(SocketAddress(literal: "[2001:db8::1]", port: 53))
        XCTAssertEqual(ipv6.family, AF_INET6)
        XCTAssertEqual(ipv6.port, 53)
        XCTAssertEqual(ipv6.numericHost, "2001:db8::1")
    }

    func testNamesAndUnknownZonesAreNoLiterals() {
        XCTAssertFalse(SocketAddress.isLiteral("example.com"))
        XCTAssertFalse(SocketAddress.isLiteral("192.0.2"))
        XCTAssertFalse(SocketAddress.isLiteral("fe80::1%no-such-interface9"))
        XCTAssertTrue(SocketAddress.isLiteral("fe80::1%1"))
    }

    func testBindingPortZeroReportsThePortTheSystemChose() throws {
        let (descriptor, address) = try XCTUnwrap(SocketAddress.loopback(port: 0).bound(stream: true))
        defer { close(descriptor) }
        XCTAssertNotEqual(address.port, 0)
        XCTAssertEqual(address.numericHost, "127.0.0.1")
        // The port is the one listened on (right byte order): a connection to it is accepted.
        XCTAssertEqual(listen(descriptor, 1), 0)
        let client = socket(AF_INET, SocketAddress.socketType(stream: true), 0)
        defer { close(client) }
        XCTAssertEqual(address.withSockaddr { connect(client, $0, $1) }, 0, "errno \(errno)")
    }

    func testLookupOfALiteralGivesIt() throws {
        guard case .success(let found) = SocketAddress.resolve(host: "127.0.0.1", port: 8080, stream: true) else {
            return XCTFail("a literal always resolves")
        }
        XCTAssertEqual(found.first?.numericHost, "127.0.0.1")
        XCTAssertEqual(found.first?.port, 8080)
        guard case .failure(let failure) = SocketAddress.resolve(host: "no such host.invalid", port: 1, stream: true)
        else { return XCTFail("a name with a space never resolves") }
        XCTAssertFalse(failure.reason.isEmpty)
    }
}
