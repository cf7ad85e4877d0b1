#if SwiftCryptoSigner
    import AtprotoOAuth
    import Foundation
    import OAuthCore
    import XCTest
    import XRPCRuntime

    /// Expiry, refresh under load and nonce rotation, against a PDS these tests start with 8-second
    /// access tokens and nonces rotating every 2 seconds.
    final class OAuthTimingTests: XCTestCase {
        override class func tearDown() {
            FastPDS.shared.stop()
            super.tearDown()
        }

        // @unchecked Sendable: `tokens` is read and written under `lock`.
        /// Counts the distinct access tokens the updates stream publishes: one per refresh.
        final class TokenCounter: @unchecked Sendable {
            private let lock = NSLock()
            private var tokens: Set<String> = []
            func add(_ token: String) { lock.withLock { _ = tokens.insert(token) } }
            var count: Int { lock.withLock { tokens.count } }
        }

        func testTwoHundredConcurrentCallsAcrossExpiryShareOneRefresh() async throws {
            let pds = try await FastPDS.shared.fixture()
            let session = try await pds.signIn("carol.test")
            let first = try await currentArchive(of: session)
            XCTAssertLessThanOrEqual(first.expiresAt.timeIntervalSince(first.issuedAt), 8.5)
            let counter = TokenCounter()
            let updates = session.updates()
            let watcher = Task {
                for await update in updates {
                    if case .updated(let archive) = update, archive.accessToken != first.accessToken {
                        counter.add(archive.accessToken.value)
                    }
                }
            }
            // Start 6.5 s into the token's 8 s life and spread 200 calls over the next 3 s.
            let start = first.issuedAt.addingTimeInterval(6.5).timeIntervalSinceNow
            if start > 0 { try await Task.sleep(for: .milliseconds(Int(start * 1000))) }
            let statuses = await withTaskGroup(of: Int.self, returning: [Int].self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try? await Task.sleep(for: .milliseconds(index * 15))
                        return (try? await session.send(OAuthFlowTests.getSession).status) ?? -1
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            XCTAssertEqual(statuses.filter { $0 == 200 }.count, 200, "every call succeeds: \(Set(statuses))")
            try await Task.sleep(for: .milliseconds(200))
            watcher.cancel()
            XCTAssertEqual(counter.count, 1, "exactly one refresh")
            let last = try await currentArchive(of: session)
            XCTAssertNotEqual(last.refreshToken, first.refreshToken)
            XCTAssertGreaterThan(last.expiresAt, first.expiresAt)
        }

        func testNonceRotationIsFollowedForTheServerAndThePDSApart() async throws {
            let pds = try await FastPDS.shared.fixture()
            let session = try await pds.signIn("carol.test")
            var seen: Set<String> = []
            for round in 0..<4 {
                let response = try await session.send(OAuthFlowTests.getSession)
                XCTAssertEqual(response.status, 200, "round \(round)")
                let archive = try await currentArchive(of: session)
                if let nonce = archive.nonces[SecureURL.origin(of: pds.url)] { seen.insert(nonce) }
                try await Task.sleep(for: .milliseconds(2_300))
            }
            XCTAssertGreaterThanOrEqual(seen.count, 3, "the nonce rotated and every new one was taken")
            // A refresh after rotations: the authorization server's nonce is stale too, and one retry fixes it.
            let refreshed = try await session.refresh()
            let response = try await session.send(OAuthFlowTests.getSession)
            XCTAssertEqual(response.status, 200)
            XCTAssertNotEqual(refreshed.nonces, [:])
        }

        func testAnExpiredRestoredSessionRefreshesOnItsFirstCall() async throws {
            let pds = try await FastPDS.shared.fixture()
            let session = try await pds.signIn("carol.test")
            let archive = try await currentArchive(of: session)
            let stored = try JSONEncoder().encode(archive)
            try await Task.sleep(for: .seconds(9))
            let restored = try await pds.client().restore(
                try JSONDecoder().decode(OAuthSessionArchive.self, from: stored))
            let response = try await restored.send(OAuthFlowTests.getSession)
            XCTAssertEqual(response.status, 200)
            let now = try await currentArchive(of: restored)
            XCTAssertNotEqual(now.accessToken, archive.accessToken)
        }
    }
#endif  // SwiftCryptoSigner
