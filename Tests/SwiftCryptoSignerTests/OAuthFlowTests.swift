#if SwiftCryptoSigner
    import AtprotoOAuth
    import Foundation
    import OAuthCore
    import SwiftCryptoSigner
    import XCTest
    import XRPCRuntime

    /// The atproto OAuth client against the shared PDS's authorization server (skipped unless
    /// ATPROTO_PDS_URL is set): sign-in, calls, refresh, replay, revocation, restore, two accounts and
    /// the client kinds.
    final class OAuthFlowTests: XCTestCase {
        static let getSession = XRPCRequest(method: .get, nsid: "com.atproto.server.getSession")

        func sessionDID(_ session: OAuthSession, file: StaticString = #filePath, line: UInt = #line) async throws
            -> String?
        {
            let response = try await session.send(Self.getSession)
            XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self), file: file, line: line)
            return (try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["did"] as? String
        }

        func testTheWholeFlowFromAHandleThenCallsAndWrites() async throws {
            let pds = try PDSFixture.shared()
            let session = try await pds.signIn(pds.handle)
            let archive = try await currentArchive(of: session)
            XCTAssertEqual(archive.handle?.rawValue, pds.handle)
            XCTAssertEqual(archive.issuer, SecureURL.origin(of: pds.url))
            XCTAssertTrue(archive.scopes.contains(.atproto))
            let did = try await sessionDID(session)
            XCTAssertEqual(did, archive.did.rawValue)
            let record =
                #"{"repo":"\#(archive.did.rawValue)","collection":"app.bsky.feed.post","record":{"$type":"app.bsky.feed.post","text":"hello from OAuth","createdAt":"2026-11-25T00:00:00.000Z"}}"#
            let created = try await session.send(
                XRPCRequest(
                    method: .post, nsid: "com.atproto.repo.createRecord", body: Data(record.utf8),
                    contentType: "application/json"))
            XCTAssertEqual(created.status, 200, String(decoding: created.body, as: UTF8.self))
            // Nothing secret in what an app might log.
            for text in ["\(archive)", String(reflecting: archive), "\(session)"] {
                XCTAssertFalse(text.contains(archive.accessToken.value), text)
            }
            var dumped = ""
            dump(archive, to: &dumped)
            XCTAssertFalse(dumped.contains(archive.accessToken.value))
        }

        func testSignInFromTheServerURLWithoutAHandle() async throws {
            let pds = try PDSFixture.shared()
            let session = try await pds.client().signIn(.server(pds.url), with: pds.authenticator(pds.handle))
            let did = try await sessionDID(session)
            XCTAssertNotNil(did)
        }

        func testTwoAccountsOneOfThemDIDWebStayIndependent() async throws {
            let pds = try PDSFixture.shared()
            let webHandle = try XCTUnwrap(pds.accounts.keys.sorted().last)
            let client = pds.client()
            let alice = try await pds.signIn(pds.handle, client: client)
            let bob = try await pds.signIn(webHandle, client: client)
            let aliceArchive = try await currentArchive(of: alice)
            let bobArchive = try await currentArchive(of: bob)
            XCTAssertTrue(bobArchive.did.rawValue.hasPrefix("did:web:"), bobArchive.did.rawValue)
            XCTAssertNotEqual(aliceArchive.dpopKey, bobArchive.dpopKey, "a fresh DPoP key per session")
            try await bob.refresh()
            let aliceDID = try await sessionDID(alice)
            let bobDID = try await sessionDID(bob)
            XCTAssertEqual(aliceDID, aliceArchive.did.rawValue)
            XCTAssertEqual(bobDID, bobArchive.did.rawValue)
            try await bob.signOut()
            let stillAlice = try await sessionDID(alice)
            XCTAssertEqual(stillAlice, aliceArchive.did.rawValue)
        }

        func testASessionRestoresFromItsArchiveInANewClient() async throws {
            let pds = try PDSFixture.shared()
            let session = try await pds.signIn(pds.handle)
            let stored = try JSONEncoder().encode(try await currentArchive(of: session))
            let text = String(decoding: stored, as: UTF8.self)
            XCTAssertTrue(text.contains("dpopKey"))
            let archive = try JSONDecoder().decode(OAuthSessionArchive.self, from: stored)
            let restored = try await pds.client().restore(archive)
            let did = try await sessionDID(restored)
            XCTAssertEqual(did, archive.did.rawValue)
            try await restored.refresh()
            let again = try await sessionDID(restored)
            XCTAssertEqual(again, archive.did.rawValue)
        }

        func testSignOutRevokesTheGrantEverywhere() async throws {
            let pds = try PDSFixture.shared()
            let session = try await pds.signIn(pds.handle)
            let archive = try await currentArchive(of: session)
            let copy = try await pds.client().restore(archive)
            let updates = session.updates()
            try await session.signOut()
            var iterator = updates.makeAsyncIterator()
            let first = await iterator.next()
            XCTAssertEqual(first, .signedOut)
            do {
                _ = try await session.send(Self.getSession)
                XCTFail("a signed-out session sent a call")
            } catch let error as OAuthSessionError {
                XCTAssertEqual(error.code, .sessionEnded)
            }
            // The copy's tokens were revoked with the grant: its call is refused, its refresh too, and it ends once.
            let copyUpdates = copy.updates()
            do {
                _ = try await copy.send(Self.getSession)
                XCTFail("a revoked grant still works")
            } catch let error as OAuthSessionError {
                XCTAssertEqual(error.code, .sessionEnded)
                XCTAssertEqual(error.underlying?.serverCode, "invalid_grant")
            }
            let ended = await copy.endError
            XCTAssertNotNil(ended)
            var copyIterator = copyUpdates.makeAsyncIterator()
            var endings = 0
            while let update = await copyIterator.next() {
                if case .ended = update { endings += 1 }
                if endings == 1 { break }
            }
            XCTAssertEqual(endings, 1)
            let start = ContinuousClock.now
            do {
                _ = try await copy.send(Self.getSession)
                XCTFail("an ended session sent a call")
            } catch {}
            XCTAssertLessThan(ContinuousClock.now - start, .milliseconds(50), "later calls fail fast")
        }

        func testARefreshTokenReplayKillsTheGrant() async throws {
            let pds = try PDSFixture.shared()
            let session = try await pds.signIn(pds.handle)
            let before = try await currentArchive(of: session)
            let stale = try await pds.client().restore(before)
            let after = try await session.refresh()
            XCTAssertNotEqual(after.refreshToken, before.refreshToken, "refresh tokens rotate")
            do {
                try await stale.refresh()
                XCTFail("a replayed refresh token worked")
            } catch let error as OAuthSessionError {
                XCTAssertEqual(error.code, .sessionEnded)
            }
            // The server revoked the whole grant on replay: the rotated tokens die too.
            do {
                try await session.refresh()
                XCTFail("the grant survived a replay")
            } catch let error as OAuthSessionError {
                XCTAssertEqual(error.code, .sessionEnded)
            }
        }

        func testARefreshThatLostTheRaceAdoptsTheStoredArchive() async throws {
            let pds = try PDSFixture.shared()
            let store = ArchiveStore()
            let client = pds.client(store: store)
            let session = try await pds.signIn(pds.handle, client: client)
            let before = try await currentArchive(of: session)
            let otherProcess = try await client.restore(before)
            let saved = store.get(before.did)
            XCTAssertEqual(saved?.accessToken, before.accessToken, "the sign-in was stored")
            let refreshed = try await session.refresh()
            XCTAssertEqual(
                store.get(before.did)?.refreshToken, refreshed.refreshToken, "stored before the lock was released")
            // The other "process" refreshes with the old token: under the lock it sees the stored, newer archive.
            let adopted = try await otherProcess.refresh()
            XCTAssertEqual(adopted.refreshToken, refreshed.refreshToken)
            let did = try await sessionDID(otherProcess)
            XCTAssertEqual(did, before.did.rawValue)
        }

        func testAWrongPasswordOrADeniedConsentGivesNoSession() async throws {
            let pds = try PDSFixture.shared()
            var denied = pds.authenticator(pds.handle)
            denied.action = "deny"
            do {
                _ = try await pds.client().signIn(.account(pds.handle), with: denied)
                XCTFail("a denied sign-in gave a session")
            } catch let error as OAuthError {
                XCTAssertEqual(error.serverCode, "access_denied")
            }
            var wrong = pds.authenticator(pds.handle)
            wrong.password = "not-the-password"
            do {
                _ = try await pds.client().signIn(.account(pds.handle), with: wrong)
                XCTFail("a wrong password gave a session")
            } catch {}
        }
    }

    // @unchecked Sendable: `archives` is read and written under `lock`.
    /// What an app would persist, keyed by DID.
    final class ArchiveStore: OAuthSessionStore, @unchecked Sendable {
        private let lock = NSLock()
        private var archives: [String: OAuthSessionArchive] = [:]
        func get(_ did: DID) -> OAuthSessionArchive? { lock.withLock { archives[did.rawValue] } }
        func archive(for did: DID) async throws -> OAuthSessionArchive? { get(did) }
        func save(_ archive: OAuthSessionArchive) async throws {
            lock.withLock { archives[archive.did.rawValue] = archive }
        }
        func delete(_ did: DID) async throws { lock.withLock { archives[did.rawValue] = nil } }
    }
#endif  // SwiftCryptoSigner
