import Foundation
import OAuthCore
import XCTest

final class MetadataTests: XCTestCase {
    private func decode(_ object: [String: Any]) throws -> AuthorizationServerMetadata {
        try JSONDecoder().decode(AuthorizationServerMetadata.self, from: jsonData(object))
    }

    func testThePDSShapedDocumentPassesTheAtprotoProfile() throws {
        XCTAssertNoThrow(try decode(pdsMetadata()).validateAtprotoProfile(fetchedFor: "https://pds.example.com"))
        XCTAssertNoThrow(
            try decode(pdsMetadata(issuer: "http://127.0.0.1:2583"))
                .validateAtprotoProfile(fetchedFor: "http://127.0.0.1:2583"))
    }

    func testHostileAuthorizationServerDocumentsAreRefused() throws {
        let issuer = "https://pds.example.com"
        var cases: [(String, [String: Any])] = []
        var document = pdsMetadata()
        document["issuer"] = "https://evil.example.com"
        cases.append(("issuer differs from the URL fetched", document))
        cases.append(("issuer with a trailing slash", pdsMetadata(issuer: issuer + "/")))
        cases.append(("plain http issuer off loopback", pdsMetadata(issuer: "http://pds.example.com")))
        for (key, value) in [
            ("require_pushed_authorization_requests", false as Any), ("dpop_signing_alg_values_supported", ["RS256"]),
            ("authorization_response_iss_parameter_supported", false), ("code_challenge_methods_supported", ["plain"]),
            ("client_id_metadata_document_supported", false), ("scopes_supported", ["openid"]),
            ("token_endpoint", "http://evil.example.com/token"), ("pushed_authorization_request_endpoint", "ftp://x"),
            ("response_types_supported", ["token"]), ("grant_types_supported", ["authorization_code"]),
        ] {
            document = pdsMetadata()
            document[key] = value
            cases.append(("\(key) = \(value)", document))
        }
        for key in [
            "require_pushed_authorization_requests", "dpop_signing_alg_values_supported",
            "authorization_response_iss_parameter_supported", "pushed_authorization_request_endpoint",
        ] {
            document = pdsMetadata()
            document[key] = nil
            cases.append(("without \(key)", document))
        }
        for (name, object) in cases {
            XCTAssertThrowsError(try decode(object).validateAtprotoProfile(fetchedFor: issuer), name) { error in
                XCTAssertEqual((error as? OAuthError)?.code, .invalidMetadata, name)
            }
        }
        // Wrong types and missing required fields do not decode at all.
        for (key, value) in [
            ("issuer", 5 as Any), ("token_endpoint", ["x"]), ("require_pushed_authorization_requests", "yes"),
        ] {
            document = pdsMetadata()
            document[key] = value
            XCTAssertThrowsError(try decode(document), key)
        }
        document = pdsMetadata()
        document["token_endpoint"] = nil
        XCTAssertThrowsError(try decode(document))
    }

    func testFetchChecksTheIssuerAgainstTheURLItWasFetchedFor() async throws {
        var hostile = pdsMetadata(issuer: "https://pds.example.com")
        hostile["issuer"] = "https://other.example.com"
        let http = ScriptedHTTPClient([HTTPTransportResponse(status: 200, body: jsonData(hostile))])
        do {
            _ = try await AuthorizationServerMetadata.fetch(issuer: "https://pds.example.com", using: http)
            XCTFail("another issuer's document was accepted")
        } catch {
            XCTAssertEqual(error.code, .invalidMetadata)
        }
        XCTAssertEqual(
            http.sent.first?.url.absoluteString, "https://pds.example.com/.well-known/oauth-authorization-server")
        let insecure = ScriptedHTTPClient([])
        do {
            _ = try await AuthorizationServerMetadata.fetch(issuer: "http://pds.example.com", using: insecure)
            XCTFail("an http issuer was fetched")
        } catch {
            XCTAssertEqual(error.code, .insecureURL)
            XCTAssertTrue(insecure.sent.isEmpty)
        }
    }

    func testProtectedResourceMetadataChecks() async throws {
        let resource = try XCTUnwrap(URL(string: "https://pds.example.com"))
        let good =
            ["resource": "https://pds.example.com", "authorization_servers": ["https://entryway.example.com"]]
            as [String: Any]
        let http = ScriptedHTTPClient([HTTPTransportResponse(status: 200, body: jsonData(good))])
        let metadata = try await ProtectedResourceMetadata.fetch(resource: resource, using: http)
        XCTAssertEqual(metadata.authorizationServer, "https://entryway.example.com")
        for hostile in [
            ["resource": "https://evil.example.com", "authorization_servers": ["https://pds.example.com"]]
                as [String: Any],
            ["resource": "https://pds.example.com", "authorization_servers": [String]()],
            ["resource": "https://pds.example.com"],
        ] {
            let client = ScriptedHTTPClient([HTTPTransportResponse(status: 200, body: jsonData(hostile))])
            do {
                _ = try await ProtectedResourceMetadata.fetch(resource: resource, using: client)
                XCTFail("accepted \(hostile)")
            } catch {
                XCTAssertEqual(error.code, .invalidMetadata)
            }
        }
        let notFound = ScriptedHTTPClient([HTTPTransportResponse(status: 404)])
        do {
            _ = try await ProtectedResourceMetadata.fetch(resource: resource, using: notFound)
            XCTFail("a 404 was accepted")
        } catch {
            XCTAssertEqual(error.code, .invalidMetadata)
        }
    }
}
