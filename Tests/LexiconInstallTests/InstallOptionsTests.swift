import Foundation
import XCTest

/// The network options of `lexgen install`, offline: what they accept and what their errors say.
final class InstallOptionsTests: XCTestCase {
    /// `--dns-server <host[:port]>` takes a host name as its help says: the query goes to its address
    /// (here nobody listens on port 1, so the answer is a refused connection, not a refused option).
    func testDNSServerTakesAHostNameAndSaysWhatIsWrong() throws {
        let folder = try LexgenRun.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let offline = ["--plc-directory", "http://127.0.0.1:9"]
        let named = try LexgenRun.run(
            ["install", "com.example.thing", "--dns-server", "localhost:1"] + offline, in: folder)
        XCTAssertEqual(named.status, 1)
        XCTAssertFalse(named.errors.contains("no IPv4 or IPv6 address"), named.errors)
        XCTAssertTrue(
            named.errors.contains("from 127.0.0.1:1") || named.errors.contains("from [::1]:1"), named.errors)

        let unknown = try LexgenRun.run(
            ["install", "com.example.thing", "--dns-server", "nowhere.invalid:53"] + offline, in: folder)
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(
            unknown.errors.contains(
                "--dns-server \"nowhere.invalid:53\" is no nameserver: the host name nowhere.invalid does not resolve"),
            unknown.errors)
        XCTAssertTrue(unknown.errors.contains("expected host[:port]"), unknown.errors)
        XCTAssertFalse(unknown.errors.contains("fetching"), "nothing is fetched with a bad option: \(unknown.errors)")
    }
}
