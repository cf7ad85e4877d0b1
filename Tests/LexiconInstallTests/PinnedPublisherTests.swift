import Foundation
import LexGenInstall
import LexGenKit
import LexGenSchema
import XCTest

/// Pins and their publishers: a re-install checks that the authority still names the pinned record's
/// DID, and `--update` says what moved when only the publisher did.
final class PinnedPublisherTests: XCTestCase {
    // @unchecked Sendable: every `var` is read and written under `lock`.
    /// Repositories by DID, and which DID each authority names, as atproto would answer.
    final class Network: LexiconInstallSource, @unchecked Sendable {
        private let lock = NSLock()
        private var repositories: [String: [String: (data: Data, cid: String)]] = [:]
        private var authority = "did:plc:alice"
        private var fetches: [String] = []
        let label = "atproto"
        /// The DIDs whose repositories were read, in order.
        var fetchedFrom: [String] { lock.withLock { fetches } }

        func publish(_ nsid: String, by did: String, description: String = "v1") {
            let text =
                #"{"lexicon":1,"id":"\#(nsid)","defs":{"main":{"type":"token","description":"\#(description)"}}}"#
            // A record's CID stands for its content: the same lexicon has the same CID in any repository.
            lock.withLock { repositories[did, default: [:]][nsid] = (Data(text.utf8), "cid-\(description)") }
        }

        func moveAuthority(to did: String) { lock.withLock { authority = did } }

        /// The record of `nsid` in `did`'s repository.
        private func record(_ nsid: String, in did: String) -> FetchedLexicon? {
            lock.withLock {
                fetches.append(did)
                return repositories[did]?[nsid].map { record in
                    FetchedLexicon(
                        nsid: nsid, path: FetchedLexicon.path(for: nsid), data: record.data,
                        record: .init(uri: "at://\(did)/com.atproto.lexicon.schema/\(nsid)", cid: record.cid))
                }
            }
        }

        func lexicon(_ nsid: String) async throws -> FetchedLexicon? {
            record(nsid, in: lock.withLock { authority })
        }

        /// As lexgen's atproto source does: from the repository the pinned URI names.
        func lexicon(pinnedBy entry: LexiconManifest.Entry) async throws -> FetchedLexicon? {
            guard let did = entry.record?.publisher else { return try await lexicon(entry.nsid) }
            return record(entry.nsid, in: did)
        }

        func nsids(matching pattern: String) async throws -> [String] { [] }

        func currentPublisher(of nsid: String) async throws -> String? { lock.withLock { authority } }

        var resolverOptions: LexiconManifest.ResolverOptions?
    }

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinned-publisher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var lexicons: URL { folder.appendingPathComponent("lexicons") }
    private var manifestURL: URL { folder.appendingPathComponent("lexicons.manifest.json") }
    private let nsid = "com.example.status"
    private var file: URL { lexicons.appendingPathComponent("com/example/status.json") }

    private func install(_ source: Network, update: Bool = false) async throws -> NamedInstallReport {
        try await LexiconInstaller.install([nsid], from: source, to: lexicons, manifest: manifestURL, update: update)
    }

    /// The authority moves to another DID that publishes the same record: a re-install refuses it and
    /// names both DIDs; `--update` moves the pin and says the publisher moved, not the version.
    func testAPinnedReinstallRefusesAnotherPublisherAndUpdateSaysWhatMoved() async throws {
        let network = Network()
        network.publish(nsid, by: "did:plc:alice")
        network.publish(nsid, by: "did:plc:bob")
        _ = try await install(network)
        let manifestBefore = try Data(contentsOf: manifestURL)
        network.moveAuthority(to: "did:plc:bob")
        try FileManager.default.removeItem(at: file)

        do {
            _ = try await install(network)
            XCTFail("a lexicon was installed from the pinned DID after its authority moved")
        } catch let error as InstallError {
            XCTAssertEqual(error.file, manifestURL.path)
            XCTAssertTrue(
                error.message.contains(
                    "\(nsid) is pinned to the record at://did:plc:alice/com.atproto.lexicon.schema/\(nsid), "
                        + "published by did:plc:alice, but its authority now names did:plc:bob"), error.message)
            XCTAssertTrue(error.message.contains("--update"), error.message)
            XCTAssertEqual(error.pinsToMove, [nsid])
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "nothing was installed")
        XCTAssertEqual(try Data(contentsOf: manifestURL), manifestBefore)

        let report = try await install(network, update: true)
        XCTAssertEqual(report.moved.count, 1)
        let move = try XCTUnwrap(report.moved.first)
        XCTAssertTrue(move.publisherChanged)
        XCTAssertFalse(move.versionChanged)
        let cid = try XCTUnwrap(move.to.record?.cid)
        XCTAssertEqual(move.description, "\(nsid): publisher did:plc:alice -> did:plc:bob (same version \(cid))")
        XCTAssertFalse(move.description.contains("\(cid) -> \(cid)"))
        XCTAssertEqual(
            try LexiconManifest(contentsOf: manifestURL).entry(forNSID: nsid)?.record?.publisher, "did:plc:bob")
    }

    /// Several pins moved to another publisher: one refusal names every one of them (one line each),
    /// and its `pinsToMove` (the `--update` the command suggests) moves them all in one round.
    func testEveryMovedPinIsNamedInOneRefusal() async throws {
        let network = Network()
        let names = ["com.example.a", "com.example.b", "com.example.c"]
        for name in names {
            network.publish(name, by: "did:plc:alice")
            network.publish(name, by: "did:plc:bob")
        }
        _ = try await LexiconInstaller.install(names, from: network, to: lexicons, manifest: manifestURL, update: false)
        network.moveAuthority(to: "did:plc:bob")
        try FileManager.default.removeItem(at: lexicons)

        do {
            _ = try await LexiconInstaller.install(
                names, from: network, to: lexicons, manifest: manifestURL, update: false)
            XCTFail("lexicons were installed from the pinned DID after their authority moved")
        } catch let error as InstallError {
            XCTAssertEqual(error.pinsToMove, names)
            for name in names {
                XCTAssertTrue(
                    error.message.contains("\(name) is pinned to the record at://did:plc:alice/"), error.message)
            }
            XCTAssertTrue(error.message.hasPrefix("3 pinned lexicons now have another publisher"), error.message)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: lexicons.path), "nothing was installed")
        let report = try await LexiconInstaller.install(
            names, from: network, to: lexicons, manifest: manifestURL, update: true)
        XCTAssertEqual(report.moved.map(\.nsid).sorted(), names)
    }

    /// A record URI edited by hand in the manifest is a publisher mismatch, said as such, and nothing is
    /// fetched from the DID it names; not "changed since it was pinned".
    func testAHandEditedRecordURIIsReportedAsTheMismatch() async throws {
        let network = Network()
        network.publish(nsid, by: "did:plc:alice")
        network.publish(nsid, by: "did:plc:mallory", description: "other")
        _ = try await install(network)
        let edited = try String(contentsOf: manifestURL, encoding: .utf8)
            .replacingOccurrences(of: "at://did:plc:alice/", with: "at://did:plc:mallory/")
        try Data(edited.utf8).write(to: manifestURL)
        try FileManager.default.removeItem(at: file)

        do {
            _ = try await install(network)
            XCTFail("a lexicon was installed from a DID its authority does not name")
        } catch let error as InstallError {
            XCTAssertTrue(
                error.message.contains("published by did:plc:mallory, but its authority now names did:plc:alice"),
                error.message)
            XCTAssertFalse(error.message.contains("changed since it was pinned"), error.message)
        }
        XCTAssertFalse(network.fetchedFrom.contains("did:plc:mallory"), "\(network.fetchedFrom)")
    }

    func testAMoveOfVersionAndPublisherSaysBoth() async throws {
        let network = Network()
        network.publish(nsid, by: "did:plc:alice")
        _ = try await install(network)
        network.publish(nsid, by: "did:plc:bob", description: "v2")
        network.moveAuthority(to: "did:plc:bob")
        let report = try await install(network, update: true)
        let move = try XCTUnwrap(report.moved.first)
        let (old, new) = (try XCTUnwrap(move.from.record?.cid), try XCTUnwrap(move.to.record?.cid))
        XCTAssertNotEqual(old, new)
        XCTAssertEqual(move.description, "\(nsid): \(old) -> \(new); publisher did:plc:alice -> did:plc:bob")
    }

    /// The manifest keeps the resolver options of the last install over atproto (for the commands that
    /// errors suggest); an install from a folder leaves them as they were.
    func testTheManifestRecordsTheResolverOptionsOfTheLastNetworkInstall() async throws {
        let network = Network()
        network.publish(nsid, by: "did:plc:alice")
        network.resolverOptions = .init(dnsServers: ["127.0.0.1:5353"], plcDirectory: "http://127.0.0.1:2582/plc")
        _ = try await install(network)
        let text = try String(contentsOf: manifestURL, encoding: .utf8)
        XCTAssertTrue(
            text.contains(
                #"  "resolver": {"dnsServers": ["127.0.0.1:5353"], "plcDirectory": "http://127.0.0.1:2582/plc"},"#),
            text)
        let read = try LexiconManifest(contentsOf: manifestURL)
        XCTAssertEqual(
            read.resolver?.arguments,
            ["--dns-server", "127.0.0.1:5353", "--plc-directory", "http://127.0.0.1:2582/plc"])
        XCTAssertEqual(try LexiconManifest(jsonData: read.jsonData(), file: "m.json"), read)

        let upstream = folder.appendingPathComponent("upstream")
        try FileManager.default.createDirectory(at: upstream, withIntermediateDirectories: true)
        try Data(#"{"lexicon": 1, "id": "com.example.local", "defs": {"main": {"type": "token"}}}"#.utf8)
            .write(to: upstream.appendingPathComponent("local.json"))
        _ = try await LexiconInstaller.install(
            ["com.example.local"], from: try FolderInstallSource(folder: upstream), to: lexicons,
            manifest: manifestURL, update: false)
        XCTAssertEqual(try LexiconManifest(contentsOf: manifestURL).resolver, read.resolver)

        network.resolverOptions = nil
        _ = try await install(network, update: true)
        XCTAssertNil(try LexiconManifest(contentsOf: manifestURL).resolver, "the defaults are not recorded")

        let bad = text.replacingOccurrences(of: #"["127.0.0.1:5353"]"#, with: "5353")
        XCTAssertThrowsError(try LexiconManifest(jsonData: Data(bad.utf8), file: "m.json")) { error in
            XCTAssertTrue("\(error)".contains(#""resolver" must be an object"#), "\(error)")
        }
    }
}
