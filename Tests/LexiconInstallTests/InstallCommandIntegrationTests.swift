import AtprotoIdentityResolution
import Foundation
import LexGenInstall
import LexGenKit
import LexGenSchema
import LexGenTestSupport
import XCTest
import XRPCRuntime

/// `lexgen install <nsid>` as a user runs it, against the shared PDS: from a subfolder of a package,
/// into the package's `lexicons/`, pinned, re-installed from the manifest, refused when a pin no longer
/// holds, moved with `--update`, and generated.
final class InstallCommandIntegrationTests: XCTestCase {
    typealias Environment = NetworkInstallIntegrationTests.Environment

    func lexgen(_ arguments: [String], in folder: URL) throws -> LexgenRun {
        try LexgenRun.run(arguments, in: folder)
    }

    func testInstallPinReinstallUpdateAndGenerate() async throws {
        let environment = try Environment.current()
        let suffix = NetworkInstallIntegrationTests.uniqueName()
        let (_, cids) = try await NetworkInstallIntegrationTests.publish(
            try NetworkInstallIntegrationTests.lexiconPair(suffix), in: environment)
        let status = "test.statusphere.status\(suffix)"
        let defs = "test.statusphere.defs\(suffix)"

        let package = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-net-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: package) }
        let subfolder = package.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.1\n".utf8).write(to: package.appendingPathComponent("Package.swift"))

        // From a subfolder: the install goes to the package root, not beside the shell.
        let first = try lexgen(["install", status] + environment.networkArguments, in: subfolder)
        XCTAssertEqual(first.status, 0, first.errors)
        XCTAssertTrue(first.output.contains("2 lexicons (named and referenced): 2 fetched, 2 written"), first.output)
        let lexicons = package.appendingPathComponent("lexicons")
        let manifestURL = package.appendingPathComponent("lexicons.manifest.json")
        XCTAssertFalse(FileManager.default.fileExists(atPath: subfolder.appendingPathComponent("lexicons").path))
        let manifest = try LexiconManifest(contentsOf: manifestURL)
        XCTAssertEqual(manifest.entry(forNSID: status)?.record?.cid, cids[status])
        XCTAssertEqual(manifest.entry(forNSID: defs)?.record?.cid, cids[defs], "the referenced lexicon is pinned too")
        XCTAssertNil(manifest.source, "over atproto there is no folder to record")
        let defsFile = lexicons.appendingPathComponent("test/statusphere/defs\(suffix).json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: defsFile.path))

        // No argument: exactly the manifest; a deleted file comes back with the same bytes.
        let pinnedBytes = try Data(contentsOf: defsFile)
        try FileManager.default.removeItem(at: defsFile)
        // verify (and the build plugin) name the command that restores it, with the resolver options.
        let verify = try lexgen(["verify"], in: package)
        XCTAssertEqual(verify.status, 1)
        let fix = (["run: swift run lexgen install"] + environment.networkArguments).joined(separator: " ")
        XCTAssertTrue(verify.errors.contains("missing (\(defs)); \(fix)"), verify.errors)
        let again = try lexgen(["install"] + environment.networkArguments, in: package)
        XCTAssertEqual(again.status, 0, again.errors)
        XCTAssertTrue(again.output.contains("1 fetched, 1 written, 1 unchanged"), again.output)
        XCTAssertEqual(try Data(contentsOf: defsFile), pinnedBytes)

        // The generator takes what was installed.
        let output = package.appendingPathComponent("Generated")
        let generated = try lexgen(
            [lexicons.path, "--output", output.path, "--manifest", manifestURL.path], in: package)
        XCTAssertEqual(generated.status, 0, generated.errors)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: output.appendingPathComponent("test.statusphere.status\(suffix).swift").path))

        // The publisher changes a pinned lexicon: a re-install refuses it, --update moves the pin.
        let (_, newCIDs) = try await NetworkInstallIntegrationTests.publish(
            [defs: try JSONValue.parse(#"{"mood":{"type":"string","maxLength":64}}"#)], in: environment)
        try FileManager.default.removeItem(at: defsFile)
        let refused = try lexgen(["install"] + environment.networkArguments, in: package)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.errors.contains("\(defs) changed since it was pinned"), refused.errors)
        XCTAssertTrue(refused.errors.contains("--update"), refused.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: defsFile.path), "nothing installed")
        XCTAssertEqual(try LexiconManifest(contentsOf: manifestURL), manifest)

        let updated = try lexgen(["install", "--update"] + environment.networkArguments, in: package)
        XCTAssertEqual(updated.status, 0, updated.errors)
        XCTAssertTrue(updated.output.contains("1 pins moved"), updated.output)
        XCTAssertEqual(try LexiconManifest(contentsOf: manifestURL).entry(forNSID: defs)?.record?.cid, newCIDs[defs])
        XCTAssertTrue(String(decoding: try Data(contentsOf: defsFile), as: UTF8.self).contains("64"))
    }

    func testUnknownAuthorityAndToolWithoutNetworkSayWhatToDo() throws {
        let environment = try Environment.current()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-net-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try lexgen(["install", "test.nowhere.thing"] + environment.networkArguments, in: folder)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(
            run.errors.contains("lexgen: error: cannot resolve lexicon test.nowhere.thing (noAuthority)"), run.errors)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("lexicons.manifest.json").path))

        let nothing = try lexgen(["install"], in: folder)
        XCTAssertEqual(nothing.status, 64)
        XCTAssertTrue(nothing.errors.contains("nothing to install"), nothing.errors)
    }

    /// A clone without the lexicon folder but with the network: `install --from <missing folder>` installs
    /// what the manifest pins over atproto, recognised by content (the record's form differs from the file).
    func testAMissingFolderFallsBackToAtprotoCheckedByContent() async throws {
        let environment = try Environment.current()
        let suffix = NetworkInstallIntegrationTests.uniqueName()
        let lexicons = try NetworkInstallIntegrationTests.lexiconPair(suffix)
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-net-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: package) }
        let source = package.appendingPathComponent("upstream")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.1\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
        for (nsid, defs) in lexicons {
            // Written the way an upstream file is: its own key order and spacing.
            let text =
                "{\n    \"lexicon\": 1,\n    \"id\": \"\(nsid)\",\n    \"defs\": \(defs.serializedString(sortedKeys: false))\n}\n"
            try Data(text.utf8).write(to: source.appendingPathComponent("\(nsid).json"))
        }
        let pinned = try lexgen(["install", "--from", "upstream"], in: package)
        XCTAssertEqual(pinned.status, 0, pinned.errors)
        let manifestURL = package.appendingPathComponent("lexicons.manifest.json")
        let manifest = try LexiconManifest(contentsOf: manifestURL)
        XCTAssertTrue(manifest.entries.allSatisfy { $0.content != nil }, "a folder install pins content hashes")

        _ = try await NetworkInstallIntegrationTests.publish(lexicons, in: environment)
        try FileManager.default.moveItem(at: source, to: package.appendingPathComponent("elsewhere"))
        try FileManager.default.removeItem(at: package.appendingPathComponent("lexicons"))
        let fallback = try lexgen(["install", "--from", "upstream"] + environment.networkArguments, in: package)
        XCTAssertEqual(fallback.status, 0, fallback.errors)
        XCTAssertTrue(fallback.errors.contains("upstream does not exist; installing the 2 lexicons"), fallback.errors)
        XCTAssertEqual(try LexiconManifest(contentsOf: manifestURL), manifest, "the pins stay as they were")
        let verify = try lexgen(["verify"], in: package)
        XCTAssertEqual(verify.status, 0, verify.errors + verify.output)

        // The published lexicon drifts from the pin: the fallback refuses it.
        let defs = "test.statusphere.defs\(suffix)"
        _ = try await NetworkInstallIntegrationTests.publish(
            [defs: try JSONValue.parse(#"{"mood":{"type":"string","maxLength":99}}"#)], in: environment)
        try FileManager.default.removeItem(at: package.appendingPathComponent("lexicons/\(defs).json"))
        let drifted = try lexgen(["install", "--from", "upstream"] + environment.networkArguments, in: package)
        XCTAssertEqual(drifted.status, 1)
        XCTAssertTrue(drifted.errors.contains("\(defs) changed since it was pinned: its content hash"), drifted.errors)
    }

    /// The manifest pins a record of another DID than the one the authority names now (a publisher that
    /// moved, or a URI edited by hand): a re-install refuses it, naming both DIDs and the exact command;
    /// `--update` moves the pin and says the publisher moved, not the version.
    func testAPinToAnotherPublisherIsRefusedAndUpdateSaysThePublisherMoved() async throws {
        let environment = try Environment.current()
        guard let webHandle = environment.webHandle else {
            throw XCTSkip("ATPROTO_PDS_WEB_HANDLE (a second account) is not set")
        }
        let other = try await environment.identityResolver().resolveHandle(ATHandle(rawValue: webHandle)).rawValue
        let suffix = NetworkInstallIntegrationTests.uniqueName()
        let (alice, cids) = try await NetworkInstallIntegrationTests.publish(
            try NetworkInstallIntegrationTests.lexiconPair(suffix), in: environment)
        let defs = "test.statusphere.defs\(suffix)"
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("lexgen-net-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: package) }
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.1\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
        let installed = try lexgen(["install", defs] + environment.networkArguments, in: package)
        XCTAssertEqual(installed.status, 0, installed.errors)

        // The pin names the other account: as if the authority had moved from it to alice.
        let manifestURL = package.appendingPathComponent("lexicons.manifest.json")
        let pinned = "at://\(alice.rawValue)/com.atproto.lexicon.schema/\(defs)"
        let moved = "at://\(other)/com.atproto.lexicon.schema/\(defs)"
        let text = try String(contentsOf: manifestURL, encoding: .utf8)
        try Data(text.replacingOccurrences(of: pinned, with: moved).utf8).write(to: manifestURL)
        let manifest = try Data(contentsOf: manifestURL)
        let file = package.appendingPathComponent("lexicons/test/statusphere/defs\(suffix).json")
        try FileManager.default.removeItem(at: file)

        let refused = try lexgen(["install"] + environment.networkArguments, in: package)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(
            refused.errors.contains(
                "\(defs) is pinned to the record \(moved), published by \(other), but its authority now names \(alice.rawValue)"
            ), refused.errors)
        XCTAssertFalse(refused.errors.contains("changed since it was pinned"), refused.errors)
        let command = (["swift run lexgen install --update", defs] + environment.networkArguments).joined(
            separator: " ")
        XCTAssertTrue(refused.errors.contains("run: \(command)"), refused.errors)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "nothing installed")
        XCTAssertEqual(try Data(contentsOf: manifestURL), manifest)

        let updated = try lexgen(["install", "--update", defs] + environment.networkArguments, in: package)
        XCTAssertEqual(updated.status, 0, updated.errors)
        let cid = try XCTUnwrap(cids[defs])
        XCTAssertTrue(
            updated.output.contains("  \(defs): publisher \(other) -> \(alice.rawValue) (same version \(cid))"),
            updated.output)
        XCTAssertEqual(try LexiconManifest(contentsOf: manifestURL).entry(forNSID: defs)?.record?.uri, pinned)
    }
}
