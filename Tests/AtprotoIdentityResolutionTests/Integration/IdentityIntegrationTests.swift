import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCRuntime

/// Identity against the shared PDS (`scripts/pds.sh start`): its PLC-like directory, well-known
/// answers, did:web, resolveMiniDoc and DNS server. Skipped unless ATPROTO_PDS_URL and
/// ATPROTO_PDS_DNS_PORT are set.
final class IdentityIntegrationTests: XCTestCase {
    struct PDS {
        var url: URL
        var handle: ATHandle
        var webHandle: ATHandle
        var dnsPort: UInt16
    }

    func pds() throws -> PDS {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["ATPROTO_PDS_URL"], let url = URL(string: text),
            let port = environment["ATPROTO_PDS_DNS_PORT"].flatMap(UInt16.init)
        else {
            throw XCTSkip("set ATPROTO_PDS_URL and ATPROTO_PDS_DNS_PORT (eval \"$(scripts/pds.sh start)\") to run")
        }
        return PDS(
            url: url, handle: ATHandle(rawValue: environment["ATPROTO_PDS_HANDLE"] ?? "alice.test"),
            webHandle: ATHandle(rawValue: environment["ATPROTO_PDS_WEB_HANDLE"] ?? "bob.test"), dnsPort: port)
    }

    func resolver(_ pds: PDS, policy: StandardHandleResolver.Policy = .race) throws -> StandardIdentityResolver {
        try StandardIdentityResolver(
            dns: UDPDNSClient(nameservers: [DNSNameserver(host: "127.0.0.1", port: pds.dnsPort)]),
            plcDirectory: pds.url.appendingPathComponent("plc"),
            handlePolicy: policy,
            hostOverrides: HostOverrides([pds.handle.rawValue: pds.url, pds.webHandle.rawValue: pds.url]))
    }

    func testAHandleResolvesAndVerifiesThroughDNSAndHTTPS() async throws {
        let pds = try pds()
        let identity = try await resolver(pds).resolveIdentity(ATIdentifier(pds.handle))
        XCTAssertEqual(identity.did.method, "plc")
        XCTAssertEqual(identity.verifiedHandle, pds.handle)
        XCTAssertEqual(identity.pdsEndpoint.flatMap(ServiceOrigin.init), ServiceOrigin(pds.url))
        XCTAssertEqual(try identity.signingKey().curve, .secp256k1)

        let viaDNS = try await DNSHandleResolver(
            lookup: UDPDNSClient(nameservers: [DNSNameserver(host: "127.0.0.1", port: pds.dnsPort)])
        ).resolveHandle(pds.handle)
        let viaHTTPS = try await WellKnownHandleResolver(hostOverrides: HostOverrides([pds.handle.rawValue: pds.url]))
            .resolveHandle(pds.handle)
        XCTAssertEqual(viaDNS, identity.did)
        XCTAssertEqual(viaHTTPS, identity.did)
        let both = try await resolver(pds, policy: .requireBoth).resolveHandle(pds.handle)
        XCTAssertEqual(both, identity.did)
    }

    func testADIDResolvesWithItsHandleCheckedBack() async throws {
        let pds = try pds()
        let resolver = try resolver(pds)
        let did = try await resolver.resolveHandle(pds.handle)
        let identity = try await resolver.resolveIdentity(ATIdentifier(did))
        XCTAssertEqual(identity.verifiedHandle, pds.handle)
    }

    func testADIDWebAccountResolvesFromItsHost() async throws {
        let pds = try pds()
        let identity = try await resolver(pds).resolveIdentity(ATIdentifier(pds.webHandle))
        XCTAssertEqual(identity.did.method, "web")
        XCTAssertTrue(identity.did.rawValue.hasPrefix("did:web:localhost%3A"), identity.did.rawValue)
        XCTAssertEqual(identity.verifiedHandle, pds.webHandle)
        XCTAssertNotNil(try identity.signingKey())
    }

    func testTheMiniDocServiceAgreesWithLocalResolution() async throws {
        let pds = try pds()
        let local = try await resolver(pds).resolveIdentity(ATIdentifier(pds.handle))
        for nsid in [MiniDocIdentityResolver.badExampleNSID, MiniDocIdentityResolver.microcosmNSID] {
            let remote = try await MiniDocIdentityResolver(service: pds.url, nsid: nsid)
                .resolveIdentity(ATIdentifier(pds.handle))
            XCTAssertEqual(remote.did, local.did, nsid.rawValue)
            XCTAssertEqual(remote.verifiedHandle, local.verifiedHandle, nsid.rawValue)
            XCTAssertEqual(remote.pdsEndpoint, local.pdsEndpoint, nsid.rawValue)
            XCTAssertEqual(try remote.signingKey(), try local.signingKey(), nsid.rawValue)
        }
    }

    func testAPasswordLoginByHandleFindsThePDSByResolution() async throws {
        let pds = try pds()
        let password = ProcessInfo.processInfo.environment["ATPROTO_PDS_PASSWORD"] ?? "hunter2"
        let resolver = CachingIdentityResolver(wrapping: try resolver(pds))
        let session = try await PasswordSession(
            loggingIn: ATIdentifier(pds.handle), password: password, resolver: resolver)
        XCTAssertEqual(ServiceOrigin(session.service), ServiceOrigin(pds.url))
        let archive = try await session.getSession()
        let resolved = try await resolver.resolveHandle(pds.handle)
        XCTAssertEqual(archive.did, resolved)
        XCTAssertEqual(archive.handle, pds.handle)
        let client = try await XRPCClient(agent: session).forPDS(of: ATIdentifier(archive.did), resolver: resolver)
        let response = try await client.agent.send(
            XRPCRequest(
                method: .get, nsid: "com.atproto.repo.describeRepo",
                queryItems: [URLQueryItem(name: "repo", value: archive.did.rawValue)]))
        XCTAssertEqual(response.status, 200)
    }

    func testAnUnknownHandleIsNotFoundEverywhere() async throws {
        let pds = try pds()
        let nobody = ATHandle(rawValue: "nobody.test")
        let local = await identityError {
            _ = try await StandardIdentityResolver(
                dns: UDPDNSClient(nameservers: [DNSNameserver(host: "127.0.0.1", port: pds.dnsPort)]),
                plcDirectory: pds.url.appendingPathComponent("plc"),
                hostOverrides: HostOverrides([nobody.rawValue: pds.url])
            ).resolveHandle(nobody)
        }
        XCTAssertEqual(local?.code, .handleNotFound)
        let remote = await identityError {
            _ = try await MiniDocIdentityResolver(service: pds.url).resolveIdentity(ATIdentifier(nobody))
        }
        XCTAssertEqual(
            remote?.code, .handleNotFound, "asked by handle, the mini-doc service's NotFound is the handle's")
    }
}
