import AtprotoIdentityResolution
import Foundation
import XCTest
import XRPCRuntime

final class MiniDocResolverTests: XCTestCase {
    let alice = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    let path = "/xrpc/com.bad-example.identity.resolveMiniDoc"

    func answer(did: String, handle: String, key: String = "did:key:zQ3shXjHeiBuRCKmM36cuYnm7YEMzhGnCmCyW92sRJ9pribSF")
        -> String
    {
        #"{"did": "\#(did)", "handle": "\#(handle)", "pds": "https://pds.example.com", "signing_key": "\#(key)"}"#
    }

    func testResolvesAHandleInOneCall() async throws {
        let server = try IdentityTestServer()
        server.route(path, text: answer(did: alice, handle: "alice.test"))
        let resolver = MiniDocIdentityResolver(service: server.baseURL)
        let identity = try await resolver.resolveIdentity(ATIdentifier(rawValue: "Alice.Test"))
        XCTAssertEqual(identity.did.rawValue, alice)
        XCTAssertEqual(identity.verifiedHandle?.rawValue, "alice.test")
        XCTAssertEqual(identity.pdsEndpoint?.absoluteString, "https://pds.example.com")
        XCTAssertEqual(try identity.signingKey().curve, .secp256k1)
        XCTAssertEqual(identity.document.handle?.rawValue, "alice.test")
        XCTAssertEqual(server.count(path), 1)
    }

    func testAnUnverifiedHandleIsInvalidByDIDAndAMismatchByHandle() async throws {
        let server = try IdentityTestServer()
        server.route(path, text: answer(did: alice, handle: "handle.invalid"))
        let resolver = MiniDocIdentityResolver(service: server.baseURL)
        let byDID = try await resolver.resolveIdentity(ATIdentifier(rawValue: alice))
        XCTAssertNil(byDID.verifiedHandle)
        let byHandle = await identityError {
            _ = try await resolver.resolveIdentity(ATIdentifier(rawValue: "alice.test"))
        }
        XCTAssertEqual(byHandle?.code, .handleMismatch)
    }

    func testAnswersThatDoNotFitAreTypedErrors() async throws {
        let server = try IdentityTestServer()
        let resolver = MiniDocIdentityResolver(service: server.baseURL)
        let cases: [(String, Int, IdentityError.Code)] = [
            (answer(did: "did:plc:zzzzzzzzzzzzzzzzzzzzzzzz", handle: "alice.test"), 200, .documentMismatch),
            (answer(did: alice, handle: "alice.test", key: "did:key:zNotAKey"), 200, .malformedAnswer),
            (#"{"did": 3}"#, 200, .malformedAnswer),
            ("[]", 200, .malformedAnswer),
            (#"{"error": "NotFound", "message": "no such identity"}"#, 400, .didNotFound),
            ("oops", 502, .unexpectedStatus),
        ]
        for (body, status, kind) in cases {
            server.route(path, text: body, status: status)
            let error = await identityError {
                _ = try await resolver.resolveIdentity(ATIdentifier(rawValue: self.alice))
            }
            XCTAssertEqual(error?.code, kind, body)
        }
    }

    func testAnUnknownHandleIsHandleNotFoundAndAnUnknownDIDIsDIDNotFound() async throws {
        let server = try IdentityTestServer()
        let resolver = MiniDocIdentityResolver(service: server.baseURL)
        for (body, status) in [(#"{"error": "NotFound", "message": "no such identity"}"#, 400), ("", 404)] {
            server.route(path, text: body, status: status)
            let byHandle = await identityError {
                _ = try await resolver.resolveIdentity(ATIdentifier(rawValue: "nobody.test"))
            }
            XCTAssertEqual(byHandle?.code, .handleNotFound, body)
            let handleOnly = await identityError {
                _ = try await resolver.resolveHandle(ATHandle(rawValue: "nobody.test"))
            }
            XCTAssertEqual(handleOnly?.code, .handleNotFound, body)
            let byDID = await identityError { _ = try await resolver.resolveDID(DID(rawValue: self.alice)) }
            XCTAssertEqual(byDID?.code, .didNotFound, body)
        }
    }
}
