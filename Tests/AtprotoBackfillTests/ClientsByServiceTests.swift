import Foundation
import XCTest

@testable import AtprotoBackfill

/// The default repository source makes one client per PDS and keeps it, so a PDS's connections are
/// reused across its repositories' fetches; the least recently used is let go past the bound.
final class ClientsByServiceTests: XCTestCase {
    /// Counts the clients made, by URL.
    // @unchecked Sendable: `urls` is read and written under `lock`.
    final class Made: @unchecked Sendable {
        private let lock = NSLock()
        private var urls: [URL] = []
        func add(_ url: URL) { lock.withLock { urls.append(url) } }
        var all: [URL] { lock.withLock { urls } }
    }

    func testOneClientPerServiceTheLeastRecentlyUsedLetGo() throws {
        let made = Made()
        let clients = ClientsByService(limit: 2) { url in
            made.add(url)
            return XRPCClient(agent: URLSessionAgent(serviceURL: url))
        }
        let first = try XCTUnwrap(URL(string: "https://pds-one.example"))
        let second = try XCTUnwrap(URL(string: "https://pds-two.example"))
        let third = try XCTUnwrap(URL(string: "https://pds-three.example"))
        _ = clients.client(for: first)
        _ = clients.client(for: first)
        _ = clients.client(for: second)
        XCTAssertEqual(made.all, [first, second], "one client per service")
        _ = clients.client(for: first)  // now the most recently used
        _ = clients.client(for: third)  // past the bound: `second` is let go
        _ = clients.client(for: first)
        XCTAssertEqual(made.all, [first, second, third])
        _ = clients.client(for: second)
        XCTAssertEqual(made.all, [first, second, third, second], "a client let go is made again")
    }
}
