import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// The record helpers: the requests they build from the record type, the checks before sending, and
/// the typed reading of what comes back (a bad record kept apart, never failing a list).
final class RecordHelperTests: XCTestCase {
    private let did = ATIdentifier(rawValue: "did:plc:abc")
    private let post = AppBskyFeedPost(text: "hello", createdAt: "2024-01-01T00:00:00.000Z")

    private func json(_ text: String, status: Int = 200) -> XRPCResponse {
        XRPCResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    private func body(of request: XRPCRequest?) throws -> [String: JSONValue] {
        let data = try XCTUnwrap(try XCTUnwrap(request).body)
        return try XCTUnwrap(JSONValue.parse(data).objectValue)
    }

    // MARK: create

    func testCreateRecordTakesTheCollectionAndTypeFromTheRecord() async throws {
        let agent = StubAgent(json: #"{"uri": "at://did:plc:abc/app.bsky.feed.post/3kabc", "cid": "bafyreia"}"#)
        let created = try await XRPCClient(agent: agent).createRecord(post, repo: did)

        XCTAssertEqual(created.strongRef.uri, "at://did:plc:abc/app.bsky.feed.post/3kabc")
        XCTAssertEqual(created.strongRef.cid, "bafyreia")
        let request = try XCTUnwrap(agent.requests.first)
        XCTAssertEqual(request.path, "/xrpc/com.atproto.repo.createRecord")
        XCTAssertEqual(request.method, .post)
        let fields = try body(of: request)
        XCTAssertEqual(fields["repo"], .string("did:plc:abc"))
        XCTAssertEqual(fields["collection"], .string("app.bsky.feed.post"))
        XCTAssertNil(fields["rkey"], "a tid collection leaves the key to the server")
        XCTAssertEqual(fields["record"]?.objectValue?["$type"], .string("app.bsky.feed.post"))
        XCTAssertEqual(fields["record"]?.objectValue?["text"], .string("hello"))
    }

    func testCreateRecordOfALiteralKeyCollectionSendsThatKey() async throws {
        let agent = StubAgent(json: #"{"uri": "at://did:plc:abc/app.bsky.actor.profile/self", "cid": "bafyreia"}"#)
        try await XRPCClient(agent: agent).createRecord(AppBskyActorProfile(displayName: "Alice"), repo: did)
        XCTAssertEqual(try body(of: agent.requests.first)["rkey"], .string("self"))
    }

    func testCreateRecordChecksTheRecordBeforeSendingUnlessValidationIsOff() async throws {
        let agent = StubAgent(json: #"{"uri": "at://did:plc:abc/app.bsky.feed.post/3kabc", "cid": "bafyreia"}"#)
        let tooLong = AppBskyFeedPost(text: String(repeating: "a", count: 301), createdAt: "2024-01-01T00:00:00Z")
        do {
            try await XRPCClient(agent: agent).createRecord(tooLong, repo: did)
            XCTFail("a 301-grapheme post was accepted")
        } catch let call {
            XCTAssertEqual(call.code, .invalidInput)
            let error = try XCTUnwrap(call.underlying as? LexiconValidationError, "\(call)")
            XCTAssertEqual(error.violations.map(\.path), ["$.text"])
        }
        XCTAssertTrue(agent.requests.isEmpty, "nothing is sent for an invalid record")

        try await XRPCClient(agent: agent, validatesInput: false).createRecord(tooLong, repo: did)
        XCTAssertEqual(agent.requests.count, 1)
    }

    func testARecordKeyThatDoesNotFitTheCollectionIsRejectedBeforeSending() async throws {
        let agent = StubAgent(json: "{}")
        let client = XRPCClient(agent: agent)
        do {
            try await client.createRecord(post, repo: did, rkey: "not-a-tid")
            XCTFail("a post with a non-TID key was accepted")
        } catch let call {
            XCTAssertEqual(call.code, .invalidInput)
            let error = try XCTUnwrap(call.underlying as? RecordKeyError, "\(call)")
            XCTAssertEqual(error.rkey, "not-a-tid")
            XCTAssertEqual(error.code, .invalidKey)
            XCTAssertEqual(error.collection, "app.bsky.feed.post")
            XCTAssertTrue(error.description.contains("is not a TID"), error.description)
        }
        do {
            try await client.putRecord(AppBskyActorProfile(), repo: did, rkey: "other")
            XCTFail("a profile at a key other than self was accepted")
        } catch let call {
            XCTAssertEqual(call.code, .invalidInput)
            let error = try XCTUnwrap(call.underlying as? RecordKeyError, "\(call)")
            XCTAssertTrue(error.description.contains("\"self\""), error.description)
        }
        XCTAssertTrue(agent.requests.isEmpty)
    }

    // MARK: get

    func testGetRecordSendsTheCollectionAndDecodesTheTypedValue() async throws {
        let agent = StubAgent(
            json: #"""
                {"uri": "at://did:plc:abc/app.bsky.feed.post/3kabc", "cid": "bafyreia",
                 "value": {"$type": "app.bsky.feed.post", "text": "hi", "createdAt": "2024-01-01T00:00:00Z",
                           "futureField": 7}}
                """#)
        let record = try await XRPCClient(agent: agent).getRecord(AppBskyFeedPost.self, repo: did, rkey: "3kabc")

        XCTAssertEqual(record.value.text, "hi")
        XCTAssertEqual(record.value.unknownFields["futureField"], .integer(7))
        XCTAssertEqual(record.uri, "at://did:plc:abc/app.bsky.feed.post/3kabc")
        XCTAssertEqual(record.rkey, "3kabc")
        XCTAssertEqual(record.strongRef?.cid, "bafyreia")
        let request = try XCTUnwrap(agent.requests.first)
        XCTAssertEqual(request.method, .get)
        XCTAssertEqual(request.path, "/xrpc/com.atproto.repo.getRecord")
        XCTAssertEqual(
            request.queryItems,
            [
                URLQueryItem(name: "collection", value: "app.bsky.feed.post"),
                URLQueryItem(name: "repo", value: "did:plc:abc"), URLQueryItem(name: "rkey", value: "3kabc"),
            ])
    }

    func testGetRecordOfAnInvalidRecordThrowsWithTheRecordAsRead() async throws {
        let raw = #"{"$type": "app.bsky.feed.post", "text": 12, "createdAt": "2024-01-01T00:00:00Z"}"#
        let agent = StubAgent(
            json: #"{"uri": "at://did:plc:abc/app.bsky.feed.post/3k", "cid": "bafy", "value": \#(raw)}"#)
        do {
            _ = try await XRPCClient(agent: agent).getRecord(AppBskyFeedPost.self, repo: did, rkey: "3k")
            XCTFail("a post whose text is a number decoded")
        } catch let call {
            XCTAssertEqual(call.code, .invalidOutput)
            let error = try XCTUnwrap(call.underlying as? InvalidRecordError, "\(call)")
            XCTAssertEqual(error.record.value.json, try JSONValue.parse(Data(raw.utf8)))
            guard case .doesNotDecode(let reason) = error.record.problem else {
                return XCTFail("expected a decoding problem, got \(error.record.problem)")
            }
            XCTAssertEqual(reason.path, ["text"])
        }
    }

    func testAMissingRecordIsATypedServerError() async throws {
        let agent = StubAgent(status: 400, json: #"{"error": "RecordNotFound", "message": "Could not locate record"}"#)
        do {
            _ = try await XRPCClient(agent: agent).getRecord(AppBskyFeedPost.self, repo: did, rkey: "3k")
            XCTFail("a missing record was returned")
        } catch let call {
            XCTAssertEqual(call.declaredError(for: ComAtprotoRepoGetRecord.self), .recordNotFound)
            let error = try XCTUnwrap(call.serverError, "\(call)")
            XCTAssertEqual(error.code(for: ComAtprotoRepoGetRecord.self), .recordNotFound)
            XCTAssertEqual(error.status, 400)
        }
    }

    // MARK: list

    func testListRecordsKeepsInvalidRecordsApartAndNeverFailsThePage() async throws {
        let agent = StubAgent(
            json: #"""
                {"cursor": "3kc", "records": [
                  {"uri": "at://did:plc:abc/app.bsky.feed.post/3ka", "cid": "bafya",
                   "value": {"$type": "app.bsky.feed.post", "text": "one", "createdAt": "2024-01-01T00:00:00Z"}},
                  {"uri": "at://did:plc:abc/app.bsky.feed.post/3kb", "cid": "bafyb",
                   "value": {"$type": "app.bsky.feed.post", "text": "no date"}},
                  {"uri": "at://did:plc:abc/app.bsky.feed.post/3kx", "cid": "bafyx",
                   "value": {"$type": "app.bsky.feed.post", "text": "bad date", "createdAt": "yesterday"}},
                  {"uri": "at://did:plc:abc/app.bsky.feed.post/3kc", "cid": "bafyc",
                   "value": {"$type": "app.bsky.feed.post", "text": "three", "createdAt": "2024-01-03T00:00:00Z"}}
                ]}
                """#)
        let client = XRPCClient(agent: agent)
        let page = try await client.listRecords(AppBskyFeedPost.self, repo: did, limit: 4, cursor: "3k0")

        XCTAssertEqual(page.records.map(\.value.text), ["one", "three"])
        XCTAssertEqual(page.records.map(\.cid), ["bafya", "bafyc"])
        XCTAssertEqual(page.cursor, "3kc")
        XCTAssertEqual(page.invalidRecords.map(\.uri.rkey), ["3kb", "3kx"])
        XCTAssertEqual(page.invalidRecords.map(\.cid), ["bafyb", "bafyx"])
        guard case .doesNotDecode(let missing) = page.invalidRecords[0].problem,
            case .doesNotValidate(let invalid) = page.invalidRecords[1].problem
        else { return XCTFail("unexpected problems: \(page.invalidRecords.map(\.problem))") }
        XCTAssertEqual(missing.path, ["createdAt"])
        XCTAssertEqual(invalid.violations.map(\.path), ["$.createdAt"])
        XCTAssertEqual(page.invalidRecords[1].value.json.objectValue?["text"], .string("bad date"))

        let lenient = try await client.listRecords(AppBskyFeedPost.self, repo: did, validating: false)
        XCTAssertEqual(lenient.records.map(\.value.text), ["one", "bad date", "three"])

        XCTAssertEqual(
            agent.requests.first?.queryItems,
            [
                URLQueryItem(name: "collection", value: "app.bsky.feed.post"),
                URLQueryItem(name: "cursor", value: "3k0"), URLQueryItem(name: "limit", value: "4"),
                URLQueryItem(name: "repo", value: "did:plc:abc"),
            ])
    }

    func testListRecordsTreatsARecordOfAnotherTypeAsInvalid() async throws {
        let agent = StubAgent(
            json: #"""
                {"records": [{"uri": "at://did:plc:abc/app.bsky.feed.post/3ka", "cid": "bafya",
                  "value": {"$type": "com.example.post", "text": "x", "createdAt": "2024-01-01T00:00:00Z"}}]}
                """#)
        let page = try await XRPCClient(agent: agent).listRecords(AppBskyFeedPost.self, repo: did)
        XCTAssertTrue(page.records.isEmpty)
        XCTAssertEqual(page.invalidRecords.count, 1)
        XCTAssertNil(page.cursor)
    }

    // MARK: put, delete

    func testPutRecordOfAProfileDefaultsToTheLiteralKey() async throws {
        let agent = StubAgent(json: #"{"uri": "at://did:plc:abc/app.bsky.actor.profile/self", "cid": "bafyreia"}"#)
        let client = XRPCClient(agent: agent)
        try await client.putRecord(AppBskyActorProfile(displayName: "Alice"), repo: did, swapRecord: .null)

        let fields = try body(of: agent.requests.first)
        XCTAssertEqual(agent.requests.first?.path, "/xrpc/com.atproto.repo.putRecord")
        XCTAssertEqual(fields["rkey"], .string("self"))
        XCTAssertEqual(fields["collection"], .string("app.bsky.actor.profile"))
        XCTAssertEqual(fields["swapRecord"], .null)
        XCTAssertEqual(fields["record"]?.objectValue?["displayName"], .string("Alice"))

        do {
            try await client.putRecord(post, repo: did)
            XCTFail("a post was put without a key")
        } catch let call {
            XCTAssertEqual(call.code, .invalidInput)
            let error = try XCTUnwrap(call.underlying as? RecordKeyError, "\(call)")
            XCTAssertNil(error.rkey)
            XCTAssertEqual(error.code, .missingKey)
        }
        XCTAssertEqual(agent.requests.count, 1)
    }

    func testDeleteRecordNamesTheCollectionOfTheType() async throws {
        let agent = StubAgent(json: #"{"commit": {"cid": "bafyc", "rev": "3kabcdefghij2"}}"#)
        let output = try await XRPCClient(agent: agent).deleteRecord(AppBskyFeedLike.self, repo: did, rkey: "3kl")
        XCTAssertEqual(output.commit?.rev, "3kabcdefghij2")
        XCTAssertEqual(
            try body(of: agent.requests.first),
            ["repo": .string("did:plc:abc"), "collection": .string("app.bsky.feed.like"), "rkey": .string("3kl")])
    }

    // MARK: applyWrites, blobs

    func testApplyWritesSendsTypedOperationsAndReadsTheResults() async throws {
        let agent = StubAgent(
            json: #"""
                {"commit": {"cid": "bafyc", "rev": "3kabcdefghij2"}, "results": [
                  {"$type": "com.atproto.repo.applyWrites#createResult",
                   "uri": "at://did:plc:abc/app.bsky.feed.post/3ka", "cid": "bafya"},
                  {"$type": "com.atproto.repo.applyWrites#updateResult",
                   "uri": "at://did:plc:abc/app.bsky.actor.profile/self", "cid": "bafyp"},
                  {"$type": "com.atproto.repo.applyWrites#deleteResult"}]}
                """#)
        let output = try await XRPCClient(agent: agent).applyWrites(
            [
                .create(post), .update(AppBskyActorProfile(displayName: "A"), rkey: "self"),
                .delete(AppBskyFeedLike.self, rkey: "3kl"),
            ], repo: did)

        guard case .array(let writes)? = try body(of: agent.requests.first)["writes"] else {
            return XCTFail("no writes array in \(String(describing: agent.requests.first))")
        }
        XCTAssertEqual(
            writes.map { $0.objectValue?["$type"]?.stringValue },
            [
                "com.atproto.repo.applyWrites#create", "com.atproto.repo.applyWrites#update",
                "com.atproto.repo.applyWrites#delete",
            ])
        XCTAssertEqual(
            writes.map { $0.objectValue?["collection"]?.stringValue },
            [
                "app.bsky.feed.post", "app.bsky.actor.profile", "app.bsky.feed.like",
            ])
        XCTAssertEqual(writes[0].objectValue?["value"]?.objectValue?["$type"], JSONValue.string("app.bsky.feed.post"))
        XCTAssertEqual(output.results?.count, 3)
        guard case .comAtprotoRepoApplyWritesCreateResult(let created)? = output.results?.first else {
            return XCTFail("expected a create result, got \(String(describing: output.results))")
        }
        XCTAssertEqual(created.cid, "bafya")
    }

    func testApplyWritesSendsNothingWhenOneRecordIsInvalid() async throws {
        let agent = StubAgent(json: "{}")
        let bad = AppBskyFeedPost(text: "x", createdAt: "not a date")
        do {
            try await XRPCClient(agent: agent).applyWrites([.create(post), .create(bad)], repo: did)
            XCTFail("an invalid write was accepted")
        } catch let call {
            XCTAssertEqual(call.code, .invalidInput)
            let error = try XCTUnwrap(call.underlying as? LexiconValidationError, "\(call)")
            XCTAssertEqual(error.violations.map(\.path), ["$.createdAt"])
        }
        do {
            try await XRPCClient(agent: agent).applyWrites([.update(AppBskyActorProfile(), rkey: "other")], repo: did)
            XCTFail("a profile update at a key other than self was accepted")
        } catch let call {
            XCTAssertEqual(call.code, .invalidInput)
            let error = try XCTUnwrap(call.underlying as? RecordKeyError, "\(call)")
            XCTAssertEqual(error.collection, "app.bsky.actor.profile")
            XCTAssertEqual(error.nsid, "com.atproto.repo.applyWrites")
        }
        XCTAssertTrue(agent.requests.isEmpty)
    }

    func testUploadBlobSendsTheBytesWithTheirTypeAndReturnsTheBlob() async throws {
        let agent = StubAgent(
            json: #"""
                {"blob": {"$type": "blob", "ref": {"$link": "bafkreib"}, "mimeType": "image/png", "size": 4}}
                """#)
        let bytes = Data([0x89, 0x50, 0x4E, 0x47])
        let blob = try await XRPCClient(agent: agent).uploadBlob(bytes, mimeType: "image/png")

        XCTAssertEqual(blob, LexiconBlob(ref: CIDLink("bafkreib"), mimeType: "image/png", size: 4))
        let request = try XCTUnwrap(agent.requests.first)
        XCTAssertEqual(request.path, "/xrpc/com.atproto.repo.uploadBlob")
        XCTAssertEqual(request.contentType, "image/png")
        XCTAssertEqual(request.body, bytes)
    }
}
