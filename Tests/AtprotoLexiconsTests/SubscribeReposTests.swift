import AtprotoLexicons
import Foundation
import XCTest
import XRPCTesting

/// The generated `subscribeRepos` method and the commit helpers, on synthetic firehose frames.
final class SubscribeReposTests: XCTestCase {
    private static let did = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    private static let post = AtprotoDataModelValue.map([
        "$type": .string("app.bsky.feed.post"), "text": .string("hello firehose"),
        "createdAt": .string("2024-01-01T00:00:00.000Z"),
    ])
    private static let like = AtprotoDataModelValue.map([
        "$type": .string("app.bsky.feed.like"), "createdAt": .string("2024-01-01T00:00:00.000Z"),
        "subject": .map(["uri": .string("at://\(did)/app.bsky.feed.post/3k2a"), "cid": .string(cid.string)]),
    ])
    private static let custom = AtprotoDataModelValue.map(["$type": .string("com.example.custom"), "n": .integer(1)])
    private static let cid = CID(sha256Of: [1, 2, 3])

    /// A `#commit` frame that creates a post, a like and a custom record and deletes a post.
    private static func commitFrame(seq: Int, tamper: Bool = false) -> Data {
        var blocks = [post, like, custom].map { CARBlock(encoding: $0) }
        let commit = CARBlock(encoding: .map(["did": .string(did), "version": .integer(3), "data": .link(cid)]))
        if tamper { blocks[0].bytes = Data(DAGCBOR.encode(custom)) }
        let car = CARFile(roots: [commit.cid], blocks: [commit] + blocks)
        let paths = ["app.bsky.feed.post/3k2b", "app.bsky.feed.like/3k2c", "com.example.custom/self"]
        var ops: [AtprotoDataModelValue] = zip(paths, blocks).map { path, block in
            .map(["action": .string("create"), "path": .string(path), "cid": .link(block.cid)])
        }
        ops.append(.map(["action": .string("delete"), "path": .string("app.bsky.feed.post/3k2a"), "cid": .null]))
        let body = AtprotoDataModelValue.map([
            "seq": .integer(seq), "rebase": .bool(false), "tooBig": .bool(false), "repo": .string(did),
            "commit": .link(commit.cid), "rev": .string("3k2d2222222aa"), "since": .null,
            "blocks": .bytes(Data(car.encoded())), "ops": .array(ops), "blobs": .array([]),
            "time": .string("2024-01-01T00:00:00.000Z"),
        ])
        return frame("#commit", body)
    }

    private static func frame(_ type: String?, op: Int = 1, _ body: AtprotoDataModelValue) -> Data {
        var header: [String: AtprotoDataModelValue] = ["op": .integer(op)]
        if let type { header["t"] = .string(type) }
        return Data(DAGCBOR.encode(.map(header)) + DAGCBOR.encode(body))
    }

    private func client(_ frames: [Data]) -> (XRPCClient, FrameTransport) {
        let transport = FrameTransport(frames: frames)
        var client = XRPCClient(agent: StubAgent { _ in XRPCResponse(status: 500) })
        client.eventStreams = XRPCEventStreamOptions(
            serviceURL: URL(string: "https://relay.test"), transport: transport)
        return (client, transport)
    }

    func testGeneratedMethodStreamsTypedMessagesAndTheCommitsRecords() async throws {
        let identity = AtprotoDataModelValue.map([
            "seq": .integer(2), "did": .string(Self.did), "time": .string("2024-01-01T00:00:00.000Z"),
        ])
        let (client, transport) = client([
            Self.commitFrame(seq: 1), Self.frame("#identity", identity),
            Self.frame("#brandNew", .map(["seq": .integer(3)])),
            Self.frame(nil, op: -1, .map(["error": .string("FutureCursor"), "message": .string("ahead")])),
        ])
        var messages: [ComAtprotoSyncSubscribeRepos.Message] = []
        do {
            for try await message in client.com.atproto.sync.subscribeRepos(cursor: 0) { messages.append(message) }
            XCTFail("the error frame must end the stream with an error")
        } catch {
            XCTAssertEqual(error.code(for: ComAtprotoSyncSubscribeRepos.self), .futureCursor)
            XCTAssertEqual(error.lastSequence, 3, "the unknown message had a seq too")
        }
        XCTAssertEqual(
            transport.urls.map(\.absoluteString), ["wss://relay.test/xrpc/com.atproto.sync.subscribeRepos?cursor=0"])
        guard messages.count == 3, case .comAtprotoSyncSubscribeReposCommit(let commit) = messages[0],
            case .comAtprotoSyncSubscribeReposIdentity(let identityMessage) = messages[1],
            case .unknown(let unknown) = messages[2]
        else { return XCTFail("unexpected messages \(messages)") }
        XCTAssertEqual(commit.seq, 1)
        XCTAssertEqual(identityMessage.did.rawValue, Self.did)
        XCTAssertEqual(unknown.type, "com.atproto.sync.subscribeRepos#brandNew")

        let operations = try commit.operations(decoding: [AppBskyFeedPost.self])
        XCTAssertEqual(operations.map(\.action), [.create, .create, .create, .delete])
        XCTAssertEqual(
            operations.map(\.collection),
            ["app.bsky.feed.post", "app.bsky.feed.like", "com.example.custom", "app.bsky.feed.post"])
        XCTAssertEqual(operations[0].recordKey, "3k2b")
        XCTAssertEqual(operations[0].record?.as(AppBskyFeedPost.self)?.text, "hello firehose")
        guard case .unknown(let like)? = operations[1].record else { return XCTFail("a like is not in the lookup") }
        XCTAssertEqual(like.type, "app.bsky.feed.like")
        XCTAssertNil(operations[3].record)
        XCTAssertNil(operations[3].cid)

        let everything = try commit.operations()
        XCTAssertNotNil(everything[1].record?.as(AppBskyFeedLike.self), "the default lookup knows app.bsky records")
        guard case .unknown(let custom)? = everything[2].record else { return XCTFail("custom stays unknown") }
        XCTAssertEqual(custom.json, Self.custom.json)
    }

    func testACommitWhoseBlockDoesNotMatchItsCIDFailsToRead() async throws {
        let (client, _) = client([Self.commitFrame(seq: 1, tamper: true)])
        for try await message in client.com.atproto.sync.subscribeRepos() {
            guard case .comAtprotoSyncSubscribeReposCommit(let commit) = message else { return XCTFail("\(message)") }
            XCTAssertThrowsError(try commit.operations()) { error in
                XCTAssertEqual((error as? AtprotoBinaryDecodingError)?.code, .hashMismatch, "\(error)")
            }
            return
        }
        XCTFail("no message")
    }

    func testBlueskyRecordTypesCoverEveryAppAndChatRecordInTheCorpus() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("lexicons")
        var collections: [String] = []
        for folder in ["app/bsky", "chat/bsky"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let file as URL in files where file.pathExtension == "json" {
                let json = try JSONValue.parse(Data(contentsOf: file))
                if json.objectValue?["defs"]?.objectValue?["main"]?.objectValue?["type"] == .string("record"),
                    let id = json.objectValue?["id"]?.stringValue
                {
                    collections.append(id)
                }
            }
        }
        XCTAssertFalse(collections.isEmpty, "no lexicons under \(root.path): run lexgen install")
        XCTAssertEqual(LexiconRecordTypes.bluesky.collections.map(\.rawValue), collections.sorted())
    }
}

// @unchecked Sendable: `connected` is read and written under `lock`; `frames` is a `let`.
/// A transport whose one connection plays `frames`, then closes normally.
final class FrameTransport: XRPCWebSocketTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let frames: [Data]
    private var connected: [URL] = []

    init(frames: [Data]) { self.frames = frames }

    var urls: [URL] { lock.withLock { connected } }

    func connect(to url: URL, headers: HTTPHeaderFields) async throws -> any XRPCWebSocketConnection {
        lock.withLock { connected.append(url) }
        return Connection(frames)
    }

    // @unchecked Sendable: `frames` is read and written under `lock`.
    final class Connection: XRPCWebSocketConnection, @unchecked Sendable {
        private let lock = NSLock()
        private var frames: [Data]

        init(_ frames: [Data]) { self.frames = frames }

        func receive() async throws -> XRPCWebSocketMessage? {
            lock.withLock { frames.isEmpty ? nil : .binary(frames.removeFirst()) }
        }

        func send(_ message: XRPCWebSocketMessage) async throws {}

        func close(code: XRPCWebSocketCloseCode, reason: String) {}
    }
}
