import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCRuntime
import XRPCTesting

/// A resolver answering from tables, for session tests.
struct TableResolver: IdentityResolver {
    var handles: [String: String]
    var documents: [String: String]

    func invalidate(did: DID) async {}

    func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        guard let did = handles[handle.normalized.rawValue] else {
            throw IdentityError(.handleNotFound, identifier: handle.rawValue, message: "not in the table")
        }
        return DID(rawValue: did)
    }

    func resolveDID(_ did: DID) async throws(IdentityError) -> DIDDocument {
        guard let text = documents[did.rawValue] else {
            throw IdentityError(.didNotFound, identifier: did.rawValue, message: "not in the table")
        }
        do { return try DIDDocument(jsonData: Data(text.utf8)) } catch {
            throw IdentityError(.malformedAnswer, identifier: did.rawValue, message: "\(error)")
        }
    }
}

final class PasswordLoginTests: XCTestCase {
    static let alice = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    static let pds = "https://pds.example.com"

    var resolver: TableResolver {
        TableResolver(
            handles: ["alice.test": Self.alice],
            documents: [Self.alice: documentText(did: Self.alice, handle: "alice.test", pds: Self.pds)])
    }

    static func sessionAnswer(did: String, pds: String?) -> XRPCResponse {
        let doc = pds.map { #", "didDoc": \#(documentText(did: did, handle: "alice.test", pds: $0))"# } ?? ""
        let body = #"{"accessJwt": "a1", "refreshJwt": "r1", "did": "\#(did)", "handle": "alice.test"\#(doc)}"#
        return XRPCResponse(status: 200, headers: ["content-type": "application/json"], body: Data(body.utf8))
    }

    func testALoginByHandleGoesToTheResolvedPDSAndCallsGoThere() async throws {
        let did = Self.alice
        let agent = StubAgent { request in
            if request.nsid == "com.atproto.server.createSession" { return Self.sessionAnswer(did: did, pds: nil) }
            return XRPCResponse(status: 200, headers: ["content-type": "application/json"], body: Data("{}".utf8))
        }
        let session = try await PasswordSession(
            loggingIn: ATIdentifier(rawValue: "Alice.test"), password: "pw", resolver: resolver, agent: agent)
        XCTAssertEqual(session.service.absoluteString, Self.pds)
        let archive = try await XCTUnwrapAsync(await session.archive)
        XCTAssertEqual(archive.pdsEndpoint?.absoluteString, Self.pds)
        _ = try await session.send(XRPCRequest(method: .get, nsid: "com.atproto.repo.describeRepo"))
        let requests = agent.requests
        XCTAssertEqual(requests.first?.serviceURL?.absoluteString, Self.pds)
        let login = String(decoding: requests.first?.body ?? Data(), as: UTF8.self)
        XCTAssertTrue(login.contains(Self.alice), "the login names the resolved DID: \(login)")
        XCTAssertEqual(requests.last?.serviceURL?.absoluteString, Self.pds)
        XCTAssertEqual(requests.last?.header("Authorization"), "Bearer a1")
    }

    func testAServerAnsweringForAnotherAccountIsRefused() async throws {
        let agent = StubAgent { _ in Self.sessionAnswer(did: "did:plc:mmmmmmmmmmmmmmmmmmmmmmmm", pds: nil) }
        do {
            _ = try await PasswordSession(
                loggingIn: ATIdentifier(rawValue: "alice.test"), password: "pw", resolver: resolver, agent: agent)
            XCTFail("expected a service mismatch")
        } catch {
            XCTAssertEqual((error as? IdentityError)?.code, .serviceMismatch, "\(error)")
        }
    }

    func testAnEntrywayThatNamesAnotherPDSThanTheDocumentIsRefused() async throws {
        let entryway = try XCTUnwrap(URL(string: "https://entryway.example"))
        let agent = StubAgent { _ in Self.sessionAnswer(did: Self.alice, pds: "https://evil.example") }
        let session = PasswordSession(service: entryway, agent: agent, accountCheck: resolver.accountCheck())
        do {
            try await session.login("alice.test", password: "pw")
            XCTFail("expected a service mismatch")
        } catch {
            XCTAssertEqual((error as? IdentityError)?.code, .serviceMismatch, "\(error)")
            XCTAssertTrue("\(error)".contains("evil.example"))
        }
        let archive = await session.archive
        XCTAssertNil(archive, "a refused login installs nothing")
    }

    func testAnEntrywayWhoseAnswerMatchesTheDocumentRoutesToThePDS() async throws {
        let entryway = try XCTUnwrap(URL(string: "https://entryway.example"))
        let agent = StubAgent { _ in Self.sessionAnswer(did: Self.alice, pds: Self.pds) }
        let session = PasswordSession(service: entryway, agent: agent, accountCheck: resolver.accountCheck())
        let archive = try await session.login("alice.test", password: "pw")
        XCTAssertEqual(archive.callServiceURL.absoluteString, Self.pds)
    }

    func testARefreshThatMovesThePDSAwayFromTheDocumentEndsTheSession() async throws {
        let entryway = try XCTUnwrap(URL(string: "https://entryway.example"))
        let agent = StubAgent { request in
            switch request.nsid {
            case "com.atproto.server.createSession": return Self.sessionAnswer(did: Self.alice, pds: Self.pds)
            default: return Self.sessionAnswer(did: Self.alice, pds: "https://evil.example")
            }
        }
        let session = PasswordSession(service: entryway, agent: agent, accountCheck: resolver.accountCheck())
        try await session.login("alice.test", password: "pw")
        do {
            try await session.refresh()
            XCTFail("expected the session to end")
        } catch {
            XCTAssertEqual((error as? PasswordSessionError)?.code, .sessionEnded, "\(error)")
        }
        let ended = await session.endError
        XCTAssertNotNil(ended)
    }

    func testAClientForThePDSOfAnAccountRoutesItsCalls() async throws {
        let agent = StubAgent(json: "{}")
        let client = try await XRPCClient(agent: agent).forPDS(
            of: ATIdentifier(rawValue: "alice.test"), resolver: resolver)
        _ = try await client.agent.send(XRPCRequest(method: .get, nsid: "com.atproto.repo.getRecord"))
        XCTAssertEqual(agent.requests.first?.serviceURL?.absoluteString, Self.pds)
    }
}

func XCTUnwrapAsync<T>(_ value: T?, file: StaticString = #filePath, line: UInt = #line) async throws -> T {
    try XCTUnwrap(value, file: file, line: line)
}
