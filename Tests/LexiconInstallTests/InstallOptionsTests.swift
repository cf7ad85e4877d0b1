import Foundation
import LexGenTestSupport
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

    /// An install over atproto that cannot reach DNS (no network) says so and names the offline way:
    /// the same lexicons from a folder, with `--from`.
    func testAnUnreachableNetworkPointsToFrom() throws {
        let folder = try LexgenRun.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let offline = ["--dns-server", "127.0.0.1:1", "--plc-directory", "http://127.0.0.1:9"]
        for names in [["com.example.thing", "com.example.other"], ["com.example.*"]] {
            let run = try LexgenRun.run(["install"] + names + offline + ["--to", "lex"], in: folder)
            XCTAssertEqual(run.status, 1)
            XCTAssertTrue(run.errors.contains("_lexicon.example.com"), run.errors)
            XCTAssertTrue(
                run.errors.contains(
                    "to install without the network, take the lexicons from a folder of lexicon files "
                        + "(a checkout of their repository): swift run lexgen install --from <folder> "
                        + names.map { $0.hasSuffix("*") ? "'\($0)'" : $0 }.joined(separator: " ") + " --to lex"),
                run.errors)
        }
        // A lexicon that is not in a folder is not a network problem: no hint.
        let lexicons = folder.appendingPathComponent("upstream")
        try FileManager.default.createDirectory(at: lexicons, withIntermediateDirectories: true)
        let missing = try LexgenRun.run(["install", "com.example.thing", "--from", lexicons.path], in: folder)
        XCTAssertEqual(missing.status, 1)
        XCTAssertFalse(missing.errors.contains("without the network"), missing.errors)
    }
}
