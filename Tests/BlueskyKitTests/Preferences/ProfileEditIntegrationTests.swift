// Profile edits with compare-and-swap against the shared PDS, and the image checks before upload.
//
// The shared PDS refuses every `swapRecord` but null ("swapRecord not supported yet", its README), so
// the tests send through `SwapCheckingAgent`: it checks each put's `swapRecord` against the record the
// PDS holds, answers `InvalidSwap` as the reference PDS does when they differ, and forwards the put
// otherwise (writes serialized, so the check and the write are one step).

import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCRuntime
import XRPCTesting

final class ProfileEditIntegrationTests: XCTestCase {
    func testCreatesThenEditsKeepingOtherFields() async throws {
        let account = try await freshPDSAccount("profile")
        let client = XRPCClient(agent: SwapCheckingAgent(inner: account.session))
        try await client.updateProfile(repo: account.did) { $0.displayName = "Alice" }
        try await client.updateProfile(repo: account.did) { $0.description = "Writes Swift" }
        let stored = try await client.getRecord(
            AppBskyActorProfile.self, repo: ATIdentifier(rawValue: account.did.rawValue), rkey: "self")
        XCTAssertEqual(stored.value.displayName, "Alice")
        XCTAssertEqual(stored.value.description, "Writes Swift")
    }

    func testAConcurrentWriterCausesOneRetryAndBothChangesAreKept() async throws {
        let account = try await freshPDSAccount("swap")
        let plain = account.client
        try await plain.putRecord(
            AppBskyActorProfile(displayName: "Before"), repo: ATIdentifier(rawValue: account.did.rawValue))
        let agent = SwapCheckingAgent(inner: account.session)
        // Before our first write lands, another writer changes the pronouns.
        await agent.beforeNextPut {
            let other = AppBskyActorProfile(displayName: "Before", pronouns: "she/her")
            try await plain.putRecord(other, repo: ATIdentifier(rawValue: account.did.rawValue))
        }
        let calls = Counter()
        try await XRPCClient(agent: agent).updateProfile(repo: account.did) {
            calls.increment()
            $0.displayName = "After"
        }
        XCTAssertEqual(calls.value, 2, "the edit was not retried once after InvalidSwap")
        let refusals = await agent.refusals
        XCTAssertEqual(refusals, 1)
        let stored = try await plain.getRecord(
            AppBskyActorProfile.self, repo: ATIdentifier(rawValue: account.did.rawValue), rkey: "self")
        XCTAssertEqual(stored.value.displayName, "After")
        XCTAssertEqual(stored.value.pronouns, "she/her", "the other writer's change was lost")
    }

    func testEveryAttemptLostGivesATypedErrorAndWritesNothing() async throws {
        let account = try await freshPDSAccount("conflict")
        let plain = account.client
        let repo = ATIdentifier(rawValue: account.did.rawValue)
        let agent = SwapCheckingAgent(inner: account.session)
        // Each time another version (the same record again would keep its CID, and the swap would hold).
        await agent.beforeEveryPut {
            try await plain.putRecord(AppBskyActorProfile(displayName: "Other \(UUID().uuidString)"), repo: repo)
        }
        do {
            try await XRPCClient(agent: agent).updateProfile(repo: account.did, maxAttempts: 3) {
                $0.displayName = "Mine"
            }
            XCTFail("an edit that lost every swap was written")
        } catch let error as BlueskyProfileError {
            XCTAssertEqual(error.code, .conflict)
            XCTAssertEqual(error.limit, 3)
            XCTAssertEqual(error.underlying?.declaredError(for: ComAtprotoRepoPutRecord.self), .invalidSwap)
        }
        let stored = try await plain.getRecord(AppBskyActorProfile.self, repo: repo, rkey: "self")
        XCTAssertEqual(stored.value.displayName?.hasPrefix("Other "), true)
    }

    func testImagesAreCheckedAgainstTheLexiconBeforeUpload() async throws {
        XCTAssertEqual(BlueskyProfileImageField.avatar.maxSize, 1_000_000)
        XCTAssertEqual(BlueskyProfileImageField.banner.acceptedTypes, ["image/png", "image/jpeg"])
        let sent = Counter()
        let stub = XRPCClient(
            agent: StubAgent { _ in
                sent.increment()
                return XRPCResponse(status: 500)
            })
        let refusals: [(Data, String, BlueskyProfileImageField, BlueskyProfileError.Code)] = [
            (Data(count: 1_000_001), "image/png", .avatar, .imageTooLarge),
            (Data(count: 10), "image/gif", .banner, .imageTypeNotAccepted),
            (Data(count: 10), "image/*", .avatar, .imageTypeNotAccepted),
        ]
        for (data, type, field, code) in refusals {
            do {
                _ = try await stub.uploadProfileImage(data, mimeType: type, for: field)
                XCTFail("\(type) of \(data.count) bytes was sent")
            } catch let error as BlueskyProfileError {
                XCTAssertEqual(error.code, code)
                XCTAssertEqual(error.field, field.rawValue)
            }
        }
        XCTAssertEqual(sent.value, 0, "something was sent")

        let account = try await freshPDSAccount("avatar")
        let png = Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
        let blob = try await account.client.uploadProfileImage(try XCTUnwrap(png), mimeType: "image/png", for: .avatar)
        try await account.client.updateProfile(repo: account.did) { $0.avatar = blob }
        let profile = try await account.client.app.bsky.actor.getProfile(
            actor: ATIdentifier(rawValue: account.did.rawValue))
        XCTAssertNotNil(profile.avatar)
    }
}

/// The reference PDS's `swapRecord` check, in front of a PDS that has none.
actor SwapCheckingAgent: XRPCAgent {
    let inner: any XRPCAgent
    private(set) var refusals = 0
    private var hook: (@Sendable () async throws -> Void)?
    private var hookRepeats = false

    init(inner: any XRPCAgent) { self.inner = inner }

    func beforeNextPut(_ hook: @escaping @Sendable () async throws -> Void) {
        self.hook = hook
        hookRepeats = false
    }

    func beforeEveryPut(_ hook: @escaping @Sendable () async throws -> Void) {
        self.hook = hook
        hookRepeats = true
    }

    func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        guard request.nsid == ComAtprotoRepoPutRecord.nsid, let body = request.body,
            case .object(var input) = try JSONValue.parse(body), let swap = input["swapRecord"]
        else { return try await inner.send(request) }
        if let hook {
            if !hookRepeats { self.hook = nil }
            try await hook()
        }
        let client = XRPCClient(agent: inner)
        var current: String?
        do {
            let repo = ATIdentifier(rawValue: input["repo"]?.stringValue ?? "")
            let collection = NSID(rawValue: input["collection"]?.stringValue ?? "")
            let rkey = RecordKey(rawValue: input["rkey"]?.stringValue ?? "")
            current = try await client.com.atproto.repo.getRecord(repo: repo, collection: collection, rkey: rkey).cid?
                .rawValue
        } catch {
            // (A `catch where` on this typed error crashes Swift 6.3's SIL passes: a rethrow instead.)
            if error.declaredError(for: ComAtprotoRepoGetRecord.self) != .recordNotFound { throw error }
            current = nil
        }
        guard swap.stringValue == current else {
            refusals += 1
            return XRPCResponse(
                status: 400, headers: ["content-type": "application/json"],
                body: Data(#"{"error":"InvalidSwap","message":"Record was at another version"}"#.utf8))
        }
        input["swapRecord"] = nil
        var forwarded = request
        forwarded.body = JSONValue.object(input).serialized()
        return try await inner.send(forwarded)
    }

    nonisolated func defaultServiceURL() async -> URL? { await inner.defaultServiceURL() }

    nonisolated func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields
    {
        try await inner.eventStreamHeaders(for: url, rejection: rejection)
    }
}

// @unchecked Sendable: `count` is read and written only under `lock`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
