import AtprotoLexicons
import Foundation
import XCTest

/// The record helpers against a real PDS: create, get, list, put, delete, applyWrites, and the typed
/// errors of a missing record.
final class RecordIntegrationTests: XCTestCase {
    func testCreateGetPutDeleteAPost() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let client = account.client
        let post = AppBskyFeedPost(text: "hello from swift", createdAt: now(), langs: ["en"])

        let created = try await client.createRecord(post, repo: account.repo)
        XCTAssertEqual(try post.dagCBORCID().string, created.cid.rawValue, "the CID computed before writing")
        let rkey = try XCTUnwrap(created.uri.rkey)
        XCTAssertEqual(created.uri.collection, "app.bsky.feed.post")
        XCTAssertTrue(TID(rawValue: rkey.rawValue).isValid, "the server made a TID key: \(rkey)")

        let read = try await client.getRecord(AppBskyFeedPost.self, repo: account.repo, rkey: rkey)
        XCTAssertEqual(read.value, post)
        XCTAssertEqual(read.cid, created.cid)
        XCTAssertEqual(read.uri, created.uri)

        var edited = post
        edited.text = "edited"
        let put = try await client.putRecord(edited, repo: account.repo, rkey: rkey)
        XCTAssertNotEqual(put.cid, created.cid)
        let reread = try await client.getRecord(AppBskyFeedPost.self, repo: account.repo, rkey: rkey)
        XCTAssertEqual(reread.value.text, "edited")
        XCTAssertEqual(reread.cid, put.cid)

        try await client.deleteRecord(AppBskyFeedPost.self, repo: account.repo, rkey: rkey)
        await assertRecordNotFound(client, repo: account.repo, rkey: rkey)
    }

    /// A record's CID computed from its type (`dagCBORCID()`, its DAG-CBOR written straight from the
    /// type) is the one the PDS gives it: unions, facets, a strong reference and arrays included.
    func testARecordsCIDIsKnownBeforeItIsWritten() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let client = account.client
        let quoted = AppBskyFeedPost(text: "quoted", createdAt: now())
        let first = try await client.createRecord(quoted, repo: account.repo)
        XCTAssertEqual(try quoted.dagCBORCID().string, first.cid.rawValue)
        let text = "see https://example.com #swift"
        let post = AppBskyFeedPost(
            text: text, createdAt: now(),
            embed: .appBskyEmbedRecord(AppBskyEmbedRecord(record: .init(uri: first.uri, cid: first.cid))),
            facets: [
                AppBskyRichtextFacet(
                    index: .init(byteStart: 4, byteEnd: 23),
                    features: [.appBskyRichtextFacetLink(.init(uri: "https://example.com"))]),
                AppBskyRichtextFacet(
                    index: .init(byteStart: 24, byteEnd: 30), features: [.appBskyRichtextFacetTag(.init(tag: "swift"))]),
            ],
            langs: ["en", "de"], tags: ["atproto"])
        let created = try await client.createRecord(post, repo: account.repo)
        XCTAssertEqual(try post.dagCBORCID().string, created.cid.rawValue)
        // And the bytes read back as the same post.
        XCTAssertEqual(try AppBskyFeedPost(dataModel: DAGCBOR.decode(post.dagCBORData())), post)
    }

    func testAMissingRecordIsRecordNotFound() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        await assertRecordNotFound(account.client, repo: account.repo, rkey: RecordKey(rawValue: TID.next().rawValue))
    }

    func testAProfileIsWrittenAtItsLiteralKey() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let profile = AppBskyActorProfile(createdAt: now(), description: "integration test", displayName: "Alice")

        let put = try await account.client.putRecord(profile, repo: account.repo)
        XCTAssertEqual(put.uri.rkey, "self")
        let read = try await account.client.getRecord(AppBskyActorProfile.self, repo: account.repo, rkey: "self")
        XCTAssertEqual(read.value, profile)
    }

    func testListRecordsPagesThroughValidRecordsAndKeepsABadOneApart() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let client = account.client
        var keys: [RecordKey] = []
        for index in 0..<3 {
            let rkey = RecordKey(rawValue: TID.next().rawValue)
            try await client.createRecord(
                AppBskyFeedPost(text: "list \(index)", createdAt: now()), repo: account.repo, rkey: rkey)
            keys.append(rkey)
        }
        // A record of another $type in the post collection: this PDS stores it (the reference PDS
        // refuses it), and listing posts must return it apart, not fail.
        let badKey = RecordKey(rawValue: TID.next().rawValue)
        let bad = JSONValue.object(["$type": .string("com.example.notAPost"), "text": .integer(12)])
        let storedBad: Bool
        do {
            _ = try await client.com.atproto.repo.createRecord(
                repo: account.repo, collection: "app.bsky.feed.post", record: LexiconUnknownValue(bad), rkey: badKey)
            storedBad = true
        } catch {
            guard error.status == 400 else { throw error }
            storedBad = false
        }

        var valid: [ATURI: RepositoryRecord<AppBskyFeedPost>] = [:]
        var invalid: [ATURI: InvalidRecord] = [:]
        var pages = 0
        // This PDS's cursor is inclusive (a page repeats the last record of the one before):
        // recordPages drops the repeats and stops on the repeated cursor.
        for try await page in client.recordPages(AppBskyFeedPost.self, repo: account.repo, limit: 50, maximumPages: 500)
        {
            for record in page.records { valid[record.uri] = record }
            for record in page.invalidRecords { invalid[record.uri] = record }
            pages += 1
        }
        XCTAssertLessThan(pages, 500, "listing did not end within 500 pages")
        for (index, rkey) in keys.enumerated() {
            let uri = ATURI(authority: account.repo, collection: "app.bsky.feed.post", rkey: rkey)
            XCTAssertEqual(valid[uri]?.value.text, "list \(index)")
        }
        if storedBad {
            let uri = ATURI(authority: account.repo, collection: "app.bsky.feed.post", rkey: badKey)
            let record = try XCTUnwrap(invalid[uri], "the bad record was not listed apart")
            XCTAssertEqual(record.value.json, bad)
            XCTAssertNotNil(record.cid)
            XCTAssertNil(valid[uri])
        }
    }

    func testApplyWritesCreatesUpdatesAndDeletesInOneCommit() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        let client = account.client
        let first = RecordKey(rawValue: TID.next().rawValue)
        let second = RecordKey(rawValue: TID.next().rawValue)
        try await client.createRecord(
            AppBskyFeedPost(text: "to update", createdAt: now()), repo: account.repo, rkey: first)
        try await client.createRecord(
            AppBskyFeedPost(text: "to delete", createdAt: now()), repo: account.repo, rkey: second)

        let output = try await client.applyWrites(
            [
                .create(AppBskyFeedPost(text: "created in a batch", createdAt: now())),
                .update(AppBskyFeedPost(text: "updated in a batch", createdAt: now()), rkey: first),
                .delete(AppBskyFeedPost.self, rkey: second),
            ], repo: account.repo)

        XCTAssertNotNil(output.commit)
        let results = try XCTUnwrap(output.results)
        XCTAssertEqual(results.count, 3)
        guard case .comAtprotoRepoApplyWritesCreateResult(let created) = results[0],
            case .comAtprotoRepoApplyWritesUpdateResult(let updated) = results[1],
            case .comAtprotoRepoApplyWritesDeleteResult = results[2]
        else { return XCTFail("unexpected results: \(results)") }
        let createdKey = try XCTUnwrap(created.uri.rkey)
        let read = try await client.getRecord(AppBskyFeedPost.self, repo: account.repo, rkey: createdKey)
        XCTAssertEqual(read.value.text, "created in a batch")
        let reread = try await client.getRecord(AppBskyFeedPost.self, repo: account.repo, rkey: first)
        XCTAssertEqual(reread.value.text, "updated in a batch")
        XCTAssertEqual(reread.cid, updated.cid)
        await assertRecordNotFound(client, repo: account.repo, rkey: second)
    }

    func testTheServerRejectsARecordTheClientWasToldNotToCheck() async throws {
        let account = try await PDSEnvironment.current().loggedIn()
        var unchecked = account.client
        unchecked.validatesInput = false
        let tooLong = AppBskyFeedPost(text: String(repeating: "a", count: 301), createdAt: now())
        do {
            try await unchecked.createRecord(tooLong, repo: account.repo)
            XCTFail("the server accepted a 301-grapheme post")
        } catch let call {
            let error = try XCTUnwrap(call.serverError, "\(call)")
            XCTAssertEqual(error.status, 400)
            XCTAssertEqual(error.nsid, "com.atproto.repo.createRecord")
        }
    }

    private func assertRecordNotFound(
        _ client: XRPCClient, repo: ATIdentifier, rkey: RecordKey, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            let found = try await client.getRecord(AppBskyFeedPost.self, repo: repo, rkey: rkey)
            XCTFail("expected RecordNotFound, read \(found.uri)", file: file, line: line)
        } catch {
            XCTAssertEqual(
                error.declaredError(for: ComAtprotoRepoGetRecord.self), .recordNotFound, "\(error)", file: file,
                line: line)
            XCTAssertEqual(error.status, 400, file: file, line: line)
        }
    }
}
