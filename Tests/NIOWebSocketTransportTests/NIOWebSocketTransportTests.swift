#if NIOWebSocketTransport
    import Foundation
    import NIOWebSocketTransport
    import XCTest
    import XRPCRuntime

    /// The NIO transport against the PDS of `../shared/pds` (`ATPROTO_PDS_URL`, a `http://` URL): the
    /// firehose over `ws://`, a refused upgrade, and TLS to a server that has none. `wss://` against a
    /// TLS server is in ``TLSEventStreamTests``.
    final class NIOWebSocketTransportTests: XCTestCase {
        enum Repos: XRPCSubscription {
            static let nsid: NSID = "com.atproto.sync.subscribeRepos"
            typealias Parameters = XRPCNoParameters
            typealias Message = LexiconUnknownValue
            typealias Error = XRPCUndeclaredError
        }

        private func pds() throws -> URL {
            guard let text = ProcessInfo.processInfo.environment["ATPROTO_PDS_URL"], let url = URL(string: text) else {
                throw XCTSkip("ATPROTO_PDS_URL is not set: these tests need the PDS of ../shared/pds")
            }
            return url
        }

        private func stream(_ service: URL, cursor: Int) -> XRPCEventStream<Repos> {
            let url = URL(string: "\(service.absoluteString)/xrpc/\(Repos.nsid)?cursor=\(cursor)")
            return XRPCEventStream(url: url, options: XRPCEventStreamOptions(transport: NIOWebSocketTransport()))
        }

        func testReplaysTheFirehoseFromCursorZero() async throws {
            var types: [String] = []
            for try await message in stream(try pds(), cursor: 0) {
                types.append(message.type ?? "")
                if types.count == 3 { break }
            }
            XCTAssertEqual(types.count, 3)
            XCTAssertTrue(types.allSatisfy { $0.hasPrefix("com.atproto.sync.subscribeRepos#") }, "\(types)")
        }

        func testACursorAheadOfTheServerEndsWithFutureCursor() async throws {
            let service = try pds()
            do {
                for try await message in stream(service, cursor: 1_000_000_000) { XCTFail("unexpected \(message)") }
                XCTFail("expected an error frame")
            } catch {
                XCTAssertEqual(error.code, .errorFrame)
                XCTAssertEqual(error.name, "FutureCursor")
            }
        }

        func testAnEndpointThatDoesNotUpgradeIsAHandshakeFailureWithItsStatus() async throws {
            let service = try pds()
            let url = try XCTUnwrap(URL(string: "\(service.absoluteString)/xrpc/com.atproto.server.describeServer"))
            do {
                _ = try await NIOWebSocketTransport().connect(to: url, headers: [:])
                XCTFail("describeServer does not upgrade")
            } catch let error as XRPCWebSocketError {
                XCTAssertEqual(error.code, .handshakeFailed, "\(error)")
                XCTAssertNotNil(error.status, "the server's answer is reported: \(error)")
                XCTAssertNotEqual(error.status, 101)
            }
        }

        func testTLSToAPlainServerFailsInsteadOfHanging() async throws {
            let service = try pds()
            var components = try XCTUnwrap(URLComponents(url: service, resolvingAgainstBaseURL: false))
            components.scheme = "wss"
            let url = try XCTUnwrap(components.url?.appendingPathComponent("xrpc/\(Repos.nsid)"))
            do {
                _ = try await NIOWebSocketTransport().connect(to: url, headers: [:])
                XCTFail("a plain HTTP server cannot complete a TLS handshake")
            } catch let error as XRPCWebSocketError {
                XCTAssertEqual(error.code, .handshakeFailed, "\(error)")
            }
        }
    }
#endif  // NIOWebSocketTransport
