import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCRuntime

/// The two-way handle check and the handle policies, over fake DNS and a loopback server.
final class IdentityCheckTests: XCTestCase {
    let alice = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    let mallory = "did:plc:mmmmmmmmmmmmmmmmmmmmmmmm"

    func resolver(_ server: IdentityTestServer, dns: [String: [String]], policy: StandardHandleResolver.Policy = .race)
        -> StandardIdentityResolver
    {
        let overrides = HostOverrides(["alice.test": server.baseURL, "bob.test": server.baseURL])
        return StandardIdentityResolver(
            handles: StandardHandleResolver(
                dns: DNSHandleResolver(lookup: FakeDNS(records: dns)),
                wellKnown: WellKnownHandleResolver(hostOverrides: overrides), policy: policy),
            dids: StandardDIDResolver(
                plc: PLCDirectoryResolver(directory: server.baseURL.appendingPathComponent("plc")),
                web: WebDIDResolver(hostOverrides: overrides)))
    }

    func testAHandleThatChecksOutBothWaysIsVerified() async throws {
        let server = try IdentityTestServer()
        server.route("/plc/" + alice, text: documentText(did: alice, handle: "Alice.test"))
        let identity = try await resolver(server, dns: ["_atproto.alice.test": ["did=" + alice]])
            .resolveIdentity(ATIdentifier(rawValue: "ALICE.test"))
        XCTAssertEqual(identity.did.rawValue, alice)
        XCTAssertEqual(identity.handleStatus, .verified(ATHandle(rawValue: "alice.test")))
        XCTAssertEqual(identity.pdsEndpoint?.absoluteString, "https://pds.example.com")
        XCTAssertEqual(try identity.signingKey().curve, .secp256k1)
    }

    func testAHandleWhoseDIDDoesNotClaimItBackIsRefused() async throws {
        let server = try IdentityTestServer()
        // alice.test's DNS names mallory's DID; mallory's document claims another handle.
        server.route("/plc/" + mallory, text: documentText(did: mallory, handle: "mallory.test"))
        let error = await identityError {
            _ = try await self.resolver(server, dns: ["_atproto.alice.test": ["did=" + self.mallory]])
                .resolveIdentity(ATIdentifier(rawValue: "alice.test"))
        }
        XCTAssertEqual(error?.code, .handleMismatch)
        XCTAssertTrue(error?.message.contains("claims mallory.test") ?? false, "\(String(describing: error))")
    }

    func testADIDWhoseClaimedHandleDoesNotResolveBackHasAnInvalidHandle() async throws {
        let server = try IdentityTestServer()
        server.route("/plc/" + mallory, text: documentText(did: mallory, handle: "alice.test"))
        let identity = try await resolver(server, dns: ["_atproto.alice.test": ["did=" + alice]])
            .resolveIdentity(ATIdentifier(rawValue: mallory))
        XCTAssertEqual(identity.did.rawValue, mallory)
        XCTAssertEqual(identity.handle, ATHandle.invalid)
        guard case .invalid(let claimed, let reason) = identity.handleStatus else {
            return XCTFail("expected an invalid handle, got \(identity.handleStatus)")
        }
        XCTAssertEqual(claimed?.rawValue, "alice.test")
        XCTAssertTrue(reason.contains(alice), reason)
    }

    func testSeveralDifferentDIDsInDNSAreAConflict() async throws {
        let lookup = FakeDNS(records: ["_atproto.alice.test": ["did=" + alice, "did=" + mallory, "v=spf1"]])
        let error = await identityError {
            _ = try await DNSHandleResolver(lookup: lookup).resolveHandle(ATHandle(rawValue: "alice.test"))
        }
        XCTAssertEqual(error?.code, .handleConflict)
        let same = FakeDNS(records: ["_atproto.alice.test": ["did=" + alice, "did=" + alice, "other", "did=bad"]])
        let did = try await DNSHandleResolver(lookup: same).resolveHandle(ATHandle(rawValue: "alice.test"))
        XCTAssertEqual(did.rawValue, alice)
    }

    func testTheRaceTakesTheAnswerThatArrivesWhenTheOtherMethodFails() async throws {
        let server = try IdentityTestServer()
        server.route("/.well-known/atproto-did", text: alice)
        let fromHTTPS = try await resolver(server, dns: [:]).resolveHandle(ATHandle(rawValue: "alice.test"))
        XCTAssertEqual(fromHTTPS.rawValue, alice)
        server.route("/.well-known/atproto-did", text: "", status: 404)
        let fromDNS = try await resolver(server, dns: ["_atproto.alice.test": ["did=" + alice]])
            .resolveHandle(ATHandle(rawValue: "alice.test"))
        XCTAssertEqual(fromDNS.rawValue, alice)
        let neither = await identityError {
            _ = try await self.resolver(server, dns: [:]).resolveHandle(ATHandle(rawValue: "alice.test"))
        }
        XCTAssertEqual(neither?.code, .handleNotFound)
        XCTAssertTrue(neither?.message.contains("DNS TXT _atproto.alice.test") ?? false)
        XCTAssertTrue(neither?.message.contains("HTTP 404") ?? false)
    }

    func testRequireBothRefusesMethodsThatDisagree() async throws {
        let server = try IdentityTestServer()
        server.route("/.well-known/atproto-did", text: mallory)
        let error = await identityError {
            _ = try await self.resolver(
                server, dns: ["_atproto.alice.test": ["did=" + self.alice]], policy: .requireBoth
            )
            .resolveHandle(ATHandle(rawValue: "alice.test"))
        }
        XCTAssertEqual(error?.code, .handleConflict)
        server.route("/.well-known/atproto-did", text: alice)
        let did = try await resolver(server, dns: ["_atproto.alice.test": ["did=" + alice]], policy: .requireBoth)
            .resolveHandle(ATHandle(rawValue: "alice.test"))
        XCTAssertEqual(did.rawValue, alice)
    }

    func testAnInvalidIdentifierIsRefusedBeforeAnyLookup() async throws {
        let server = try IdentityTestServer()
        let error = await identityError {
            _ = try await self.resolver(server, dns: [:]).resolveIdentity(ATIdentifier(rawValue: "not a handle"))
        }
        XCTAssertEqual(error?.code, .invalidIdentifier)
        XCTAssertEqual(server.count("/.well-known/atproto-did"), 0)
    }
}
