import AtprotoIdentityResolution
import AtprotoLexiconResolution
import Foundation
import LexGenKit
import LexGenSchema
import XCTest
import XRPCRuntime

/// Lexicons resolved and installed over atproto against the shared PDS (`scripts/pds.sh start`): its DNS
/// server answers `_lexicon.statusphere.test` with the test account's DID (`--lexicon-dns`), and the
/// account publishes `com.atproto.lexicon.schema` records with `putRecord`.
final class NetworkInstallIntegrationTests: XCTestCase {
    struct Environment {
        var pds: URL
        var dnsPort: UInt16
        var handle: String
        var password: String
        var webHandle: String?

        static func current() throws -> Environment {
            let variables = ProcessInfo.processInfo.environment
            guard let text = variables["ATPROTO_PDS_URL"], let pds = URL(string: text) else {
                throw XCTSkip(
                    "ATPROTO_PDS_URL is not set: run eval \"$(scripts/pds.sh start)\" first (see CONTRIBUTING.md)")
            }
            guard let port = variables["ATPROTO_PDS_DNS_PORT"].flatMap(UInt16.init),
                let handle = variables["ATPROTO_PDS_HANDLE"], let password = variables["ATPROTO_PDS_PASSWORD"]
            else {
                throw XCTSkip("ATPROTO_PDS_DNS_PORT, _HANDLE and _PASSWORD must be set by scripts/pds.sh start")
            }
            guard (variables["ATPROTO_PDS_LEXICON_DNS"] ?? "").contains("statusphere.test=\(handle)") else {
                throw XCTSkip("the PDS must answer _lexicon.statusphere.test for \(handle) (PDS_LEXICON_DNS)")
            }
            return Environment(
                pds: pds, dnsPort: port, handle: handle, password: password,
                webHandle: variables["ATPROTO_PDS_WEB_HANDLE"])
        }

        var dns: UDPDNSClient { UDPDNSClient(nameservers: [DNSNameserver(host: "127.0.0.1", port: dnsPort)]) }

        func identityResolver() throws -> StandardIdentityResolver {
            try StandardIdentityResolver(
                dns: dns, plcDirectory: pds.appendingPathComponent("plc"),
                hostOverrides: HostOverrides(["localhost": pds]))
        }

        var networkArguments: [String] {
            [
                "--dns-server", "127.0.0.1:\(dnsPort)", "--plc-directory",
                pds.appendingPathComponent("plc").absoluteString,
            ]
        }
    }

    /// Publishes lexicons (`id` -> `defs`) as the test account; returns each record's CID by NSID.
    static func publish(_ lexicons: [String: JSONValue], in environment: Environment) async throws -> (
        DID, [String: String]
    ) {
        let session = PasswordSession(service: environment.pds)
        let archive = try await session.login(
            ATIdentifier(rawValue: environment.handle), password: environment.password)
        var cids: [String: String] = [:]
        for (nsid, defs) in lexicons {
            let record: JSONValue = .object([
                "$type": .string("com.atproto.lexicon.schema"), "lexicon": .integer(1), "id": .string(nsid),
                "defs": defs,
            ])
            let body: JSONValue = .object([
                "repo": .string(archive.did.rawValue), "collection": .string("com.atproto.lexicon.schema"),
                "rkey": .string(nsid), "record": record,
            ])
            let response = try await session.send(
                XRPCRequest(
                    method: .post, nsid: "com.atproto.repo.putRecord", body: body.serialized(),
                    contentType: "application/json"))
            XCTAssertTrue(response.isSuccess, String(decoding: response.body, as: UTF8.self))
            cids[nsid] = try JSONValue.parse(response.body).objectValue?["cid"]?.stringValue
        }
        return (archive.did, cids)
    }

    static func uniqueName() -> String {
        "t"
            + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased().filter {
                $0.isLetter || $0.isNumber
            }
    }

    static func lexiconPair(_ suffix: String, maxLength: Int = 20) throws -> [String: JSONValue] {
        [
            "test.statusphere.status\(suffix)": try JSONValue.parse(
                #"{"main":{"type":"record","key":"tid","record":{"type":"object","required":["status"],"properties":{"status":{"type":"string"},"mood":{"type":"ref","ref":"test.statusphere.defs\#(suffix)#mood"}}}}}"#
            ),
            "test.statusphere.defs\(suffix)": try JSONValue.parse(
                #"{"mood":{"type":"string","maxLength":\#(maxLength)}}"#),
        ]
    }

    func testTheResolverProvesAPublishedLexicon() async throws {
        let environment = try Environment.current()
        let suffix = Self.uniqueName()
        let (did, cids) = try await Self.publish(try Self.lexiconPair(suffix), in: environment)
        let resolver = try LexiconResolver(identityResolver: try environment.identityResolver(), dns: environment.dns)

        let nsid = "test.statusphere.status\(suffix)"
        let authority = try await resolver.authority(of: nsid)
        XCTAssertEqual(authority, did)
        let lexicon = try await resolver.resolve(NSID(rawValue: nsid))
        XCTAssertTrue(lexicon.isVerified)
        XCTAssertEqual(lexicon.cid.description, cids[nsid])
        XCTAssertEqual(lexicon.uri.rawValue, "at://\(did.rawValue)/com.atproto.lexicon.schema/\(nsid)")
        XCTAssertEqual(lexicon.document.objectValue?["id"]?.stringValue, nsid)
        XCTAssertNil(lexicon.document.objectValue?["$type"], "the record's $type is not part of the lexicon")

        let published = try await resolver.publishedNSIDs(of: did, prefix: "test.statusphere.")
        XCTAssertTrue(
            published.contains(NSID(rawValue: nsid))
                && published.contains(NSID(rawValue: "test.statusphere.defs\(suffix)")), "\(published)")

        var unverified = resolver
        unverified.verification = .skipped
        let read = try await unverified.resolve(NSID(rawValue: nsid))
        XCTAssertFalse(read.isVerified)
        XCTAssertEqual(read.cid, lexicon.cid)

        do {
            _ = try await resolver.resolve(NSID(rawValue: "test.statusphere.absent\(suffix)"))
            XCTFail("an unpublished lexicon resolved")
        } catch {
            XCTAssertEqual(error.code, .notPublished, "\(error)")
        }
        do {
            _ = try await resolver.resolve("test.nowhere.thing")
            XCTFail("an authority without a _lexicon record resolved")
        } catch {
            XCTAssertEqual(error.code, .noAuthority, "\(error)")
            XCTAssertTrue(error.message.contains("_lexicon.nowhere.test"), error.message)
        }
    }

    /// A resolver whose documents carry another account's key: every proof must fail.
    struct SwappedKeyResolver: IdentityResolver {
        var base: StandardIdentityResolver
        var keySource: DID

        func invalidate(did: DID) async { await base.invalidate(did: did) }

        func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
            try await base.resolveHandle(handle)
        }

        func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
            var document = try await base.resolveDID(did)
            let other = try await base.resolveDID(keySource)
            document.verificationMethods = other.verificationMethods.map { method in
                var method = method
                method.id = method.id.replacingOccurrences(of: keySource.rawValue, with: did.rawValue)
                method.controller = did.rawValue
                return method
            }
            return document
        }
    }

    func testARecordSignedByAnotherKeyIsRefused() async throws {
        let environment = try Environment.current()
        guard let webHandle = environment.webHandle else {
            throw XCTSkip("ATPROTO_PDS_WEB_HANDLE (a second account) is not set")
        }
        let suffix = Self.uniqueName()
        _ = try await Self.publish(try Self.lexiconPair(suffix), in: environment)
        let base = try environment.identityResolver()
        let other = try await base.resolveHandle(ATHandle(rawValue: webHandle))
        let resolver = try LexiconResolver(
            identityResolver: SwappedKeyResolver(base: base, keySource: other), dns: environment.dns)
        do {
            let lexicon = try await resolver.resolve(NSID(rawValue: "test.statusphere.status\(suffix)"))
            XCTFail("a record was accepted under another account's key: \(lexicon.uri)")
        } catch {
            XCTAssertEqual(error.code, .verificationFailed, "\(error)")
            XCTAssertTrue(error.message.contains("badSignature"), error.message)
        }
    }
}
