import AtprotoIdentityResolution
import XCTest

/// `DNSNameserver(parsing:)`: what `--dns-server <host[:port]>` takes.
final class DNSNameserverParsingTests: XCTestCase {
    func testLiteralsAndPorts() throws {
        let cases: [(String, String, UInt16)] = [
            ("192.0.2.53", "192.0.2.53", 53), ("192.0.2.53:5353", "192.0.2.53", 5353), ("::1", "::1", 53),
            ("[::1]:5353", "::1", 5353), ("[2001:db8::53]", "2001:db8::53", 53),
        ]
        for (text, host, port) in cases {
            let server = try DNSNameserver(parsing: text)
            XCTAssertEqual([server.host, "\(server.port)"], [host, "\(port)"], text)
        }
    }

    func testAHostNameIsResolvedToAnAddress() throws {
        let server = try DNSNameserver(parsing: "localhost:5353")
        XCTAssertTrue(["127.0.0.1", "::1"].contains(server.host), server.host)
        XCTAssertEqual(server.port, 5353)
    }

    func testWhatIsWrongIsSaid() {
        let cases: [(String, String)] = [
            ("localhost:dns", "the port \"dns\" is no number"), ("localhost:0", "no number from 1 to 65535"),
            (":53", "the host is empty"), ("[::1", "is not closed"), ("[::1]53", ":port after the brackets"),
            ("a:b:c", "no IPv6 address"), ("nowhere.invalid", "the host name nowhere.invalid does not resolve"),
        ]
        for (text, expected) in cases {
            do {
                let server = try DNSNameserver(parsing: text)
                XCTFail("\(text) was read as \(server)")
            } catch {
                XCTAssertEqual(error.kind, .invalidNameserver, text)
                XCTAssertTrue(error.message.contains(expected), error.message)
                XCTAssertTrue(error.message.contains(text.debugDescription), error.message)
            }
        }
    }
}
