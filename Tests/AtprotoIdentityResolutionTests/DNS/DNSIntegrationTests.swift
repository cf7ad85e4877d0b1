import AtprotoIdentityResolution
import Foundation
import XCTest

/// ``UDPDNSClient`` against the DNS server of the shared PDS (`eval "$(scripts/pds.sh start)"`).
final class DNSIntegrationTests: XCTestCase {
    private func pdsDNS() throws -> UDPDNSClient {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["ATPROTO_PDS_DNS_PORT"], !text.isEmpty else {
            throw XCTSkip(
                "ATPROTO_PDS_DNS_PORT is not set: start the PDS with `eval \"$(bash scripts/pds.sh start)\"` "
                    + "to run the DNS integration tests")
        }
        guard let port = UInt16(text) else {
            XCTFail("ATPROTO_PDS_DNS_PORT is no port: \(text)")
            throw XCTSkip("no usable ATPROTO_PDS_DNS_PORT")
        }
        return UDPDNSClient(nameservers: [DNSNameserver(host: "127.0.0.1", port: port)], timeout: .seconds(2))
    }

    func testTheHandleHasADIDRecord() async throws {
        let dns = try pdsDNS()
        let handle = ProcessInfo.processInfo.environment["ATPROTO_PDS_HANDLE"].flatMap { $0.isEmpty ? nil : $0 }
        let records = try await dns.txtRecords(for: "_atproto.\(handle ?? "alice.test")")
        XCTAssertEqual(records.count, 1, "\(records)")
        XCTAssertTrue(records.first?.hasPrefix("did=") ?? false, "\(records)")
    }

    func testAnUnknownHandleHasNoRecords() async throws {
        let records = try await pdsDNS().txtRecords(for: "_atproto.nobody.invalid")
        XCTAssertEqual(records, [])
    }
}
