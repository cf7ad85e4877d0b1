import AtprotoIdentityResolution
import XCTest

extension XCTestCase {
    /// A ``DNSTestServer`` stopped when the test ends.
    func startDNSServer(
        host: String = "127.0.0.1", frameTCP: Bool = true, _ handler: @escaping DNSTestServer.Handler
    ) throws -> DNSTestServer {
        let server = try DNSTestServer(host: host, frameTCP: frameTCP, handler: handler)
        addTeardownBlock { server.stop() }
        return server
    }

    /// Asserts that `lookup` throws a ``DNSError`` of `kind` and returns it.
    @discardableResult
    func assertDNSError(
        _ code: DNSError.Code, file: StaticString = #filePath, line: UInt = #line,
        _ lookup: () async throws -> [String]
    ) async -> DNSError? {
        do {
            let records = try await lookup()
            XCTFail("expected DNSError \(code), got records \(records)", file: file, line: line)
        } catch let error as DNSError {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
            return error
        } catch {
            XCTFail("expected DNSError \(code), got \(error)", file: file, line: line)
        }
        return nil
    }
}
