import AtprotoLexicons
import Foundation
import XCTest

/// Blobs, identity and repository export against a real PDS, through the generated SDK.
final class SyncIntegrationTests: XCTestCase {
    /// A 1x1 PNG.
    private let png = Data(
        [
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
            0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
            0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x00, 0x02, 0x00,
            0x00, 0x05, 0x00, 0x01, 0xE9, 0xFA, 0xDC, 0xD8, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44,
            0xAE, 0x42, 0x60, 0x82,
        ])

    func testUploadABlobUseItInARecordAndFetchItBack() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let client = account.client

        let blob = try await client.uploadBlob(png, mimeType: "image/png")
        XCTAssertEqual(blob.mimeType, "image/png")
        XCTAssertEqual(blob.size, png.count)
        let cid = try CID(blob.ref.cid)
        XCTAssertEqual(cid.codec, .raw)
        XCTAssertTrue(try cid.matches(png), "the blob's CID is the SHA-256 of its bytes")

        let profile = AppBskyActorProfile(avatar: blob, displayName: "With avatar")
        try await client.putRecord(profile, repo: account.repo)
        let read = try await client.getRecord(AppBskyActorProfile.self, repo: account.repo, rkey: "self")
        XCTAssertEqual(read.value.avatar, blob)

        let fetched = try await client.com.atproto.sync.getBlob(
            did: account.did, cid: CIDString(rawValue: blob.ref.cid))
        XCTAssertEqual(fetched.data, png)
        XCTAssertEqual(fetched.contentType, "image/png")
    }

    func testAMissingBlobIsATypedError() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let missing = CID(sha256Of: Data("no such blob".utf8), codec: .raw)
        do {
            _ = try await account.client.com.atproto.sync.getBlob(
                did: account.did, cid: CIDString(rawValue: missing.string))
            XCTFail("a blob never uploaded was found")
        } catch let call {
            let error = try XCTUnwrap(call.serverError, "\(call)")
            XCTAssertEqual(error.code(for: ComAtprotoSyncGetBlob.self), .blobNotFound)
        }
    }

    func testResolveTheAccountsHandle() async throws {
        let environment = try PDSEnvironment.current()
        let account = try await environment.loggedIn()
        let resolved = try await account.client.com.atproto.identity.resolveHandle(
            handle: ATHandle(rawValue: environment.handle))
        XCTAssertEqual(resolved.did, account.did)

        do {
            _ = try await account.client.com.atproto.identity.resolveHandle(handle: "nobody.invalid")
            XCTFail("an unknown handle resolved")
        } catch let call {
            let error = try XCTUnwrap(call.serverError, "\(call)")
            XCTAssertEqual(error.status, 400)
        }
    }

    func testFetchTheRepositoryAsACARFileAndFindARecordInIt() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let created = try await account.client.createRecord(
            AppBskyFeedPost(text: "in the CAR", createdAt: now()), repo: account.repo)

        let export = try await account.client.com.atproto.sync.getRepo(did: account.did)
        XCTAssertEqual(export.contentType, "application/vnd.ipld.car")
        let car = try CARFile(reading: export.data)

        XCTAssertEqual(car.roots.count, 1)
        let root = try XCTUnwrap(car.roots.first)
        let commit = try DAGCBOR.decode(try XCTUnwrap(car.block(for: root), "the root commit is in the file"))
        XCTAssertEqual(commit["did"]?.stringValue, account.did.rawValue)
        XCTAssertEqual(commit["version"], .integer(3))
        guard case .link = commit["data"], case .bytes(let signature)? = commit["sig"] else {
            return XCTFail("the commit has no data link or signature: \(commit)")
        }
        XCTAssertEqual(signature.count, 64, "a compact k256/p256 signature")

        let recordBlock = try XCTUnwrap(
            car.block(for: try CID(created.cid.rawValue)), "the new record is in the file")
        let record = try DAGCBOR.decode(recordBlock)
        XCTAssertEqual(record["text"]?.stringValue, "in the CAR")
        XCTAssertEqual(record["$type"]?.stringValue, "app.bsky.feed.post")

        // One record with its proof: the commit is the root, the record's block is in the file.
        let proof = try await account.client.com.atproto.sync.getRecord(
            did: account.did, collection: "app.bsky.feed.post", rkey: try XCTUnwrap(created.uri.rkey))
        let proofCAR = try CARFile(reading: proof.data)
        XCTAssertEqual(proofCAR.roots.count, 1)
        XCTAssertEqual(proofCAR.block(for: try CID(created.cid.rawValue)), recordBlock)
    }
}
