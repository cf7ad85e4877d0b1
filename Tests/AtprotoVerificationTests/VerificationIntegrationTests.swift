import AtprotoCrypto
import AtprotoIdentityResolution
import AtprotoLexicons
import Foundation
import XCTest
import XRPCRuntime

@testable import AtprotoVerification

/// Record proofs and the verified firehose against the shared PDS (`scripts/pds.sh start`), whose
/// commits are signed with each account's secp256k1 key. Skipped unless ATPROTO_PDS_URL is set.
final class VerificationIntegrationTests: XCTestCase {
    struct PDS {
        var url: URL
        var handle: String
        var password: String
    }

    func pds() throws -> PDS {
        let environment = ProcessInfo.processInfo.environment
        guard let text = environment["ATPROTO_PDS_URL"], let url = URL(string: text) else {
            throw XCTSkip(
                "set ATPROTO_PDS_URL (eval \"$(scripts/pds.sh start)\") to run the verification integration tests")
        }
        return PDS(
            url: url, handle: environment["ATPROTO_PDS_HANDLE"] ?? "alice.test",
            password: environment["ATPROTO_PDS_PASSWORD"] ?? "hunter2")
    }

    /// Resolves the PDS's accounts through its PLC-like directory and well-known answers.
    func resolver(_ pds: PDS) -> CachingIdentityResolver {
        CachingIdentityResolver(
            wrapping: StandardIdentityResolver(
                handles: WellKnownHandleResolver(hostOverrides: HostOverrides([pds.handle: pds.url])),
                dids: StandardDIDResolver(
                    plc: PLCDirectoryResolver(directory: pds.url.appendingPathComponent("plc")), web: WebDIDResolver()))
        )
    }

    /// Logs in and creates a post; returns the session's client and the post's URI.
    func createPost(_ pds: PDS, text: String) async throws -> (XRPCClient, ATURI, DID) {
        let session = PasswordSession(service: pds.url)
        let archive = try await session.login(ATIdentifier(rawValue: pds.handle), password: pds.password)
        let client = XRPCClient(agent: session)
        let post = AppBskyFeedPost(text: text, createdAt: LexiconDatetime.now())
        let created = try await client.createRecord(post, repo: ATIdentifier(archive.did))
        return (client, created.uri, archive.did)
    }

    func testARecordIsProvedEndToEnd() async throws {
        let pds = try pds()
        let (session, uri, did) = try await createPost(pds, text: "proved \(UUID())")
        // This PDS's getRecord proves the path of the collection, not of the record (arroba builds the
        // covering proof from `collection` alone): serve getRecord from the whole repository instead.
        let client = XRPCClient(agent: GetRecordFromRepoAgent(wrapped: session.agent))
        let resolver = resolver(pds)
        let verified = try await XCTUnwrapAsync(
            await client.verifiedRecord(AppBskyFeedPost.self, at: uri, resolver: resolver))
        XCTAssertTrue(verified.value.text.hasPrefix("proved "))
        XCTAssertEqual(verified.commit.did, did)
        XCTAssertEqual(verified.uri, uri)
        XCTAssertFalse(verified.rev.isEmpty)

        // By handle too.
        let byHandle = ATURI(
            authority: ATIdentifier(rawValue: pds.handle), collection: try XCTUnwrap(uri.collection),
            rkey: try XCTUnwrap(uri.rkey))
        let again = try await client.proveRecord(at: byHandle, resolver: resolver)
        XCTAssertEqual(again.record?.cid, verified.cid)

        // A whole repository proves that a key is absent (this PDS answers getRecord for a missing
        // record with RecordNotFound instead of a proof).
        let repo = try await client.agent.send(
            XRPCRequest(
                method: .get, nsid: "com.atproto.sync.getRepo",
                queryItems: [URLQueryItem(name: "did", value: did.rawValue)]))
        let key = try await resolver.resolveIdentity(ATIdentifier(did)).signingKey()
        let absent = try RecordProof.verify(
            car: repo.body, did: did, path: "app.bsky.feed.post/3zzzzzzzzzzzz", key: key)
        XCTAssertNil(absent.record)
        XCTAssertEqual(absent.commit.did, did)
    }

    func testAWholeRepositoryIsProvedAndItsRecordsRead() async throws {
        let pds = try pds()
        let (client, uri, did) = try await createPost(pds, text: "repo \(UUID())")
        let response = try await client.agent.send(
            XRPCRequest(
                method: .get, nsid: "com.atproto.sync.getRepo",
                queryItems: [URLQueryItem(name: "did", value: did.rawValue)]))
        let key = try await resolver(pds).resolveIdentity(ATIdentifier(did)).signingKey()
        let repository = try VerifiedRepository(car: response.body, did: did, key: key)
        XCTAssertGreaterThan(repository.count, 0)
        let paths = repository.index.map(\.path)
        XCTAssertEqual(paths, paths.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        var posts = 0
        var found = false
        for try await entry in repository.records(decoding: .bluesky) {
            if let post = entry.record.as(AppBskyFeedPost.self) {
                posts += 1
                if entry.recordKey == uri.rkey?.rawValue { found = post.text.hasPrefix("repo ") }
            }
        }
        XCTAssertGreaterThan(posts, 0)
        XCTAssertTrue(found)
        XCTAssertThrowsError(
            try VerifiedRepository(car: response.body, did: DID(rawValue: "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"), key: key)
        ) {
            XCTAssertEqual(($0 as? AtprotoVerificationError)?.code, .wrongDID)
        }
        // Drop one MST node below the root: the walk finds the hole.
        let car = try CARFile(reading: response.body)
        let nodes = Set(repository.index.map(\.cid))
        let commitCID = car.roots[0]
        let holed = car.blocks.filter {
            $0.cid != commitCID && $0.cid != repository.commit.data && !nodes.contains($0.cid)
        }.first
        if let hole = holed {
            let without = CARFile(roots: car.roots, blocks: car.blocks.filter { $0.cid != hole.cid })
            XCTAssertThrowsError(try VerifiedRepository(car: Data(without.encoded()), did: did, key: key)) {
                XCTAssertEqual(($0 as? AtprotoVerificationError)?.code, .brokenProof, "\($0)")
            }
        }
    }

    func testATamperedProofIsRefusedWithTheRightError() async throws {
        let pds = try pds()
        let (client, uri, did) = try await createPost(pds, text: "tamper \(UUID())")
        let path = try XCTUnwrap(uri.collection).rawValue + "/" + (try XCTUnwrap(uri.rkey)).rawValue
        let identity = try await resolver(pds).resolveIdentity(ATIdentifier(did))
        let key = try identity.signingKey()
        let response = try await client.agent.send(
            XRPCRequest(
                method: .get, nsid: "com.atproto.sync.getRepo",
                queryItems: [URLQueryItem(name: "did", value: did.rawValue)]))
        XCTAssertEqual(response.status, 200)
        let proof = try RecordProof.verify(car: response.body, did: did, path: path, key: key)
        XCTAssertNotNil(proof.record)

        // The PDS's own getRecord CAR: its covering proof is for the collection's path, so it proves
        // the record only when both paths happen to share their nodes. It must never pass wrongly.
        let served = try await client.agent.send(
            XRPCRequest(
                method: .get, nsid: "com.atproto.sync.getRecord",
                queryItems: [
                    URLQueryItem(name: "did", value: did.rawValue),
                    URLQueryItem(name: "collection", value: uri.collection?.rawValue),
                    URLQueryItem(name: "rkey", value: uri.rkey?.rawValue),
                ]))
        do {
            let servedProof = try RecordProof.verify(car: served.body, did: did, path: path, key: key)
            XCTAssertEqual(servedProof.record?.cid, proof.record?.cid)
        } catch {
            XCTAssertEqual(error.code, .brokenProof, "\(error)")
        }

        func kind(_ body: () throws -> RecordProof) -> AtprotoVerificationError.Code? {
            do {
                _ = try body()
                return nil
            } catch { return (error as? AtprotoVerificationError)?.code }
        }
        // Another account's DID.
        XCTAssertEqual(
            kind {
                try RecordProof.verify(
                    car: response.body, did: DID(rawValue: "did:plc:aaaaaaaaaaaaaaaaaaaaaaaa"), path: path, key: key)
            }, .wrongDID)
        // Another key (a P-256 key of the interop files).
        let stranger = try AtprotoPublicKey(didKey: "did:key:zDnaembgSGUhZULN2Caob4HLJPaxBh92N7rtH21TErzqf8HQo")
        XCTAssertEqual(
            kind { try RecordProof.verify(car: response.body, did: did, path: path, key: stranger) }, .badSignature)
        // A CAR without the MST nodes below the root: the path cannot be proved.
        let car = try CARFile(reading: response.body)
        let commit = try SignedCommit(block: try XCTUnwrap(car.block(for: car.roots[0])), cid: car.roots[0])
        let stripped = CARFile(
            roots: car.roots, blocks: car.blocks.filter { $0.cid == commit.cid || $0.cid == commit.data })
        let strippedBytes = Data(stripped.encoded())
        let rootOnly = try MSTNode(block: try XCTUnwrap(car.block(for: commit.data)), cid: commit.data)
        if rootOnly.left != nil || rootOnly.entries.contains(where: { $0.right != nil }) {
            XCTAssertEqual(
                kind { try RecordProof.verify(car: strippedBytes, did: did, path: path, key: key) }, .brokenProof)
        }
        // A block whose bytes were changed.
        var bytes = [UInt8](response.body)
        bytes[bytes.count - 3] ^= 0x01
        let flipped = kind { try RecordProof.verify(car: Data(bytes), did: did, path: path, key: key) }
        XCTAssertTrue(flipped == .hashMismatch || flipped == .malformedData, "\(String(describing: flipped))")
        // Truncated inside a block (a cut that falls between two blocks leaves a well-formed CAR that
        // lacks blocks, which is `brokenProof`: the cut moves one byte into the block before).
        var cut = response.body.count / 2
        if (try? CARFile(reading: response.body.prefix(cut))) != nil { cut -= 1 }
        XCTAssertNil(try? CARFile(reading: response.body.prefix(cut)), "the cut at \(cut) is inside a block")
        XCTAssertEqual(
            kind { try RecordProof.verify(car: response.body.prefix(cut), did: did, path: path, key: key) },
            .malformedData)
    }

    func testTheFirehoseIsProvedCommitByCommit() async throws {
        let pds = try pds()
        let (client, _, did) = try await createPost(pds, text: "firehose \(UUID())")
        _ = try await createPost(pds, text: "firehose 2 \(UUID())")
        // Only this account's commits are proved: the stream replays every test's commits from 0, and the
        // shared PDS (arroba) leaves a repository that was emptied and then written again with an empty
        // node above the new key (a tree that is not canonical), which the verifier rightly refuses
        // (seen: a like created and deleted twice, the second key a layer lower than the first).
        let recorder = RecordingCheck(inner: FirehoseVerifier(resolver: resolver(pds)), repo: did)
        var stream = client
        stream.eventStreams.serviceURL = pds.url
        stream.eventStreams.frameCheck = recorder
        var commits = 0
        var sawOurs = false
        let deadline = ContinuousClock.now + .seconds(20)
        for try await message in stream.com.atproto.sync.subscribeRepos(cursor: 0) {
            if case .comAtprotoSyncSubscribeReposCommit(let commit) = message {
                commits += 1
                if commit.repo == did { sawOurs = true }
            }
            let provedOne = recorder.commitBodies.contains {
                guard case .array(let ops)? = $0["ops"] else { return false }
                return $0["prevData"] != nil && $0["prevData"] != .link(MSTTree.emptyRoot)
                    && $0["repo"] == .string(did.rawValue) && !ops.isEmpty
            }
            if (sawOurs && provedOne) || ContinuousClock.now > deadline { break }
        }
        XCTAssertTrue(sawOurs)
        XCTAssertGreaterThanOrEqual(commits, 2)

        // The recorded bodies, altered, fail with the right kind.
        let verifier = FirehoseVerifier(resolver: resolver(pds))
        let bodies = recorder.commitBodies.filter {
            guard case .array(let ops)? = $0["ops"] else { return false }
            return $0["prevData"] != nil && $0["prevData"] != .link(MSTTree.emptyRoot)
                && $0["repo"] == .string(did.rawValue) && !ops.isEmpty
        }
        let body = try XCTUnwrap(bodies.last, "a commit with prevData")
        let passes = try await verifier.check(type: "#commit", body: body, nsid: ComAtprotoSyncSubscribeRepos.nsid)
        XCTAssertTrue(passes)
        func failure(_ altered: [String: AtprotoDataModelValue]) async -> AtprotoVerificationError.Code? {
            do {
                _ = try await verifier.check(type: "#commit", body: altered, nsid: ComAtprotoSyncSubscribeRepos.nsid)
                return nil
            } catch { return (error as? FirehoseFailure)?.code }
        }
        var wrongPrev = body
        wrongPrev["prevData"] = .link(CID(sha256Of: [9, 9, 9]))
        let wrongPrevKind = await failure(wrongPrev)
        XCTAssertEqual(wrongPrevKind, .brokenProof)
        var wrongRepo = body
        wrongRepo["repo"] = .string("did:plc:aaaaaaaaaaaaaaaaaaaaaaaa")
        let wrongRepoKind = await failure(wrongRepo)
        XCTAssertEqual(wrongRepoKind, .wrongDID)
        var noOps = body
        noOps["ops"] = .array([])
        let noOpsKind = await failure(noOps)
        XCTAssertEqual(noOpsKind, .brokenProof)
        // Without prevData only a repository's first commit can be proved (against the empty tree).
        var noPrev = body
        noPrev["prevData"] = nil
        let noPrevKind = await failure(noPrev)
        XCTAssertEqual(noPrevKind, .brokenProof)

        // Reported, not delivered, under the report policy.
        let reports = FailureBox()
        let reporting = FirehoseVerifier(resolver: resolver(pds), policy: .report { await reports.add($0) })
        let delivered = try await reporting.check(
            type: "#commit", body: wrongPrev, nsid: ComAtprotoSyncSubscribeRepos.nsid)
        XCTAssertFalse(delivered)
        let reported = await reports.failures
        XCTAssertEqual(reported.count, 1)
    }
}

/// Answers getRecord with the whole repository's CAR (see testARecordIsProvedEndToEnd).
struct GetRecordFromRepoAgent: XRPCAgent {
    let wrapped: any XRPCAgent

    func send(_ request: XRPCRequest) async throws -> XRPCResponse {
        guard request.nsid == "com.atproto.sync.getRecord" else { return try await wrapped.send(request) }
        var repo = request
        repo.nsid = "com.atproto.sync.getRepo"
        repo.queryItems = request.queryItems.filter { $0.name == "did" }
        return try await wrapped.send(repo)
    }

    func defaultServiceURL() async -> URL? { await wrapped.defaultServiceURL() }

    func eventStreamHeaders(for url: URL, rejection: XRPCEventStreamError?) async throws -> HTTPHeaderFields {
        try await wrapped.eventStreamHeaders(for: url, rejection: rejection)
    }
}

// @unchecked Sendable: `bodies` is read and written under `lock`; `inner` and `repo` are Sendable `let`s.
/// Passes frames to a check and keeps the #commit bodies it saw; with `repo`, the commits of other
/// repositories are delivered unchecked and not kept.
final class RecordingCheck: XRPCEventFrameCheck, @unchecked Sendable {
    let inner: any XRPCEventFrameCheck
    let repo: DID?
    private let lock = NSLock()
    private var bodies: [[String: AtprotoDataModelValue]] = []

    init(inner: any XRPCEventFrameCheck, repo: DID? = nil) {
        self.inner = inner
        self.repo = repo
    }

    var commitBodies: [[String: AtprotoDataModelValue]] { lock.withLock { bodies } }
    var count: Int { lock.withLock { bodies.count } }

    func check(type: String, body: [String: AtprotoDataModelValue], nsid: NSID) async throws -> Bool {
        if let repo, type == "#commit", body["repo"] != .string(repo.rawValue) { return true }
        let passed = try await inner.check(type: type, body: body, nsid: nsid)
        if type == "#commit" { lock.withLock { bodies.append(body) } }
        return passed
    }
}

actor FailureBox {
    var failures: [FirehoseFailure] = []
    func add(_ failure: FirehoseFailure) { failures.append(failure) }
}

func XCTUnwrapAsync<T>(_ value: T?, file: StaticString = #filePath, line: UInt = #line) async throws -> T {
    try XCTUnwrap(value, file: file, line: line)
}
