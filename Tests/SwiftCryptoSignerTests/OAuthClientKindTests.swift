#if SwiftCryptoSigner
    import AtprotoOAuth
    import Foundation
    import OAuthCore
    import SwiftCryptoSigner
    import XCTest
    import XRPCRuntime

    /// Public clients with a metadata document and confidential `private_key_jwt` clients, their
    /// documents served on loopback (Python's http.server from the PDS venv) for the shared PDS to fetch.
    final class OAuthClientKindTests: XCTestCase {
        private var server: ChildProcess?
        private var folder: URL?

        override func tearDown() {
            server?.stop()
            if let folder { try? FileManager.default.removeItem(at: folder) }
            super.tearDown()
        }

        /// Serves `documents` (file name -> JSON object, `{base}` replaced by the server's URL).
        private func serve(_ documents: [String: [String: Any]]) async throws -> URL {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "oauth-clients-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.folder = folder
            let port = ChildProcess.freePort()
            let base = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)"))
            for (name, object) in documents {
                let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
                    .replacingOccurrences(of: "{base}", with: base.absoluteString)
                    .replacingOccurrences(of: "\\/", with: "/")
                try Data(text.utf8).write(to: folder.appendingPathComponent(name))
            }
            server = try ChildProcess(
                ChildProcess.python, ["-m", "http.server", "\(port)", "--bind", "127.0.0.1"], directory: folder)
            let up = await ChildProcess.waitUntilUp(base.appendingPathComponent(documents.keys.sorted()[0]))
            XCTAssertTrue(up, "the document server started")
            return base
        }

        private func metadata(_ name: String, method: String, extra: [String: Any] = [:]) -> [String: Any] {
            var document: [String: Any] = [
                "client_id": "{base}/\(name)", "application_type": "native", "client_name": "SDK test client",
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "scope": "atproto transition:generic", "dpop_bound_access_tokens": true,
                "token_endpoint_auth_method": method, "redirect_uris": ["http://127.0.0.1/callback"],
            ]
            for (key, value) in extra { document[key] = value }
            return document
        }

        func testAPublicClientWithAMetadataDocument() async throws {
            let pds = try PDSFixture.shared()
            let base = try await serve(["client.json": metadata("client.json", method: "none")])
            let configuration = try OAuthClientConfiguration.publicClient(
                metadataURL: base.appendingPathComponent("client.json"), redirectURI: "http://127.0.0.1/callback")
            let session = try await pds.signIn(pds.handle, client: pds.client(configuration))
            let response = try await session.send(OAuthFlowTests.getSession)
            XCTAssertEqual(response.status, 200)
            let archive = try await session.refresh()
            XCTAssertEqual(archive.clientID, base.appendingPathComponent("client.json").absoluteString)
        }

        func testAConfidentialClientWhoseAssertionComesFromItsBackend() async throws {
            let pds = try PDSFixture.shared()
            // The backend's key: the app never holds it, it only asks for assertions.
            let backendKey = try await SwiftCryptoES256KeyFactory().makeKey()
            var jwk = backendKey.publicJWK
            jwk.kid = "backend-1"
            let jwkObject = try JSONSerialization.jsonObject(with: JSONEncoder().encode(jwk))
            let base = try await serve([
                "confidential.json": metadata(
                    "confidential.json", method: "private_key_jwt",
                    extra: ["token_endpoint_auth_signing_alg": "ES256", "jwks": ["keys": [jwkObject]]])
            ])
            let clientID = base.appendingPathComponent("confidential.json").absoluteString
            let calls = AssertionCounter()
            let configuration = try OAuthClientConfiguration.confidential(
                metadataURL: base.appendingPathComponent("confidential.json"), redirectURI: "http://127.0.0.1/callback"
            ) { issuer in
                calls.increment()
                return try await ClientAssertion.make(
                    clientID: clientID, audience: issuer, signer: backendKey, keyID: "backend-1")
            }
            let session = try await pds.signIn(pds.handle, client: pds.client(configuration))
            let response = try await session.send(OAuthFlowTests.getSession)
            XCTAssertEqual(response.status, 200)
            try await session.refresh()
            XCTAssertGreaterThanOrEqual(calls.value, 3, "PAR, code exchange and refresh each asked the backend")

            // Without a valid assertion the server refuses the client.
            let forged = try OAuthClientConfiguration.confidential(
                metadataURL: base.appendingPathComponent("confidential.json"), redirectURI: "http://127.0.0.1/callback"
            ) { issuer in
                try await ClientAssertion.make(
                    clientID: clientID, audience: issuer, signer: try await SwiftCryptoES256KeyFactory().makeKey(),
                    keyID: "backend-1")
            }
            do {
                _ = try await pds.client(forged).authorize(.account(pds.handle))
                XCTFail("an assertion by another key was accepted")
            } catch let error as OAuthError {
                XCTAssertEqual(error.serverCode, "invalid_client")
            }
        }
    }

    // @unchecked Sendable: `count` is read and written under `lock`.
    final class AssertionCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
#endif  // SwiftCryptoSigner
