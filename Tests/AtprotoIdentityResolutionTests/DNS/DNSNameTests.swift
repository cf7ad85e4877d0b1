import AtprotoIdentityResolution
import XCTest

@testable import AtprotoIdentityResolution

/// Names are checked before anything is sent.
final class DNSNameTests: XCTestCase {
    func testValidNamesAreLowerCasedAndLoseATrailingDot() throws {
        XCTAssertEqual(try DNSName(validating: "_atproto.Alice.Example.COM").description, "_atproto.alice.example.com")
        XCTAssertEqual(try DNSName(validating: "example.com.").description, "example.com")
        XCTAssertEqual(try DNSName(validating: "xn--bcher-kva.example").description, "xn--bcher-kva.example")
        XCTAssertEqual(try DNSName(validating: "localhost").labels.count, 1)
    }

    func testTheLimitsAreInclusive() throws {
        let label63 = String(repeating: "a", count: 63)
        XCTAssertNoThrow(try DNSName(validating: "\(label63).example"))
        let name253 = [label63, label63, label63, String(repeating: "b", count: 61)].joined(separator: ".")
        XCTAssertEqual(name253.utf8.count, 253)
        XCTAssertNoThrow(try DNSName(validating: name253))
        XCTAssertNoThrow(try DNSName(validating: name253 + "."))
    }

    func testInvalidNamesAreRejected() {
        let label64 = String(repeating: "a", count: 64)
        let name254 = Array(repeating: String(repeating: "c", count: 50), count: 5).joined(separator: ".")
        XCTAssertEqual(name254.utf8.count, 254)
        for name in [
            "", ".", "..", "a..b", ".example.com", "example.com..", "\(label64).example", name254, "exa mple.com",
            "ex@mple.com", "bücher.example", "a/b.example", "tab\t.example", "nul\u{0}.example",
        ] {
            XCTAssertThrowsError(try DNSName(validating: name), "\"\(name)\"") { error in
                XCTAssertEqual((error as? DNSError)?.code, .invalidName, "\(error)")
            }
        }
    }

    func testALookupOfAnInvalidNameThrowsBeforeAskingAnyone() async throws {
        let server = try startDNSServer { query in [DNSTestMessage.answer(to: query)] }
        let dns = UDPDNSClient(nameservers: [server.nameserver])
        let error = await assertDNSError(.invalidName) { try await dns.txtRecords(for: "bad..name") }
        XCTAssertTrue(error?.message.contains("bad..name") ?? false, error?.message ?? "")
        XCTAssertEqual(server.queries.count, 0)
    }

    func testTheQueryIsRFC1035() throws {
        let query = DNSQuery(name: try DNSName(validating: "_atproto.A.b"), id: 0xBEEF)
        XCTAssertEqual(
            query.message,
            [0xBE, 0xEF, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0]
                + [8] + Array("_atproto".utf8) + [1, 97, 1, 98, 0] + [0, 16, 0, 1])
    }

    func testNoNameserversIsAClearError() async {
        let dns = UDPDNSClient(nameservers: [])
        await assertDNSError(.noNameservers) { try await dns.txtRecords(for: "example.com") }
    }

    func testANameserverThatIsNoAddressIsAClearError() async {
        let dns = UDPDNSClient(nameservers: [DNSNameserver(host: "dns.example")], attempts: 1)
        let error = await assertDNSError(.invalidNameserver) { try await dns.txtRecords(for: "example.com") }
        XCTAssertTrue(error?.message.contains("dns.example") ?? false, error?.message ?? "")
    }
}
