import AtprotoLexicons
import Foundation
import SeededRandom
import XCTest
@_spi(Generated) import XRPCCore
import XRPCTesting

/// Typed values read straight from decoded DAG-CBOR (`LexiconJSONTokens` over an `AtprotoDataModelValue`,
/// what `T(dataModel:)`, the event stream and `RepoCommitBlocks` do) and read from the value's JSON
/// form (`T(lexiconJSON: value.json)`, what they did before) agree: the same values, written back to
/// the same JSON (unknown fields included), the same invalid union members, and the same errors
/// through the public entry point. Over the upstream corpus's data-model fixtures, seeded random
/// timeline pages, firehose commits, and commit frames cut short or with bytes changed.
final class DataModelDecodingDifferentialTests: XCTestCase {
    typealias Paths = TokenDecodingDifferentialTests

    /// Decodes `value` as `T` through both paths, keeping and dropping unknown fields, and checks
    /// that they agree; returns whether it decoded.
    @discardableResult
    func assertPathsAgree<T: LexiconValue>(
        _ type: T.Type, _ value: AtprotoDataModelValue, _ label: @autoclosure () -> String,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Bool {
        var decoded = false
        for keeping in [true, false] {
            let tree = Paths.outcome(
                Result<T, any Error> {
                    let body = { try T(lexiconJSON: value.json) }
                    return keeping ? try body() : try LexiconDecoder.droppingUnknownFields(body)
                })
            let tokens = Paths.outcome(
                Result<T, any Error> {
                    try LexiconJSONTokens.decodeWithoutFallback(
                        T.self, fromDataModel: value, keepsUnknownFields: keeping)
                })
            guard tree == tokens else {
                XCTFail(
                    "\(label()) (\(keeping ? "keeping" : "dropping") unknown fields): the tree path gave "
                        + "\(tree.written ?? "an error"), the data-model path \(tokens.written ?? "an error")"
                        + (tree.invalidMembers == tokens.invalidMembers
                            ? "" : "; invalid members \(tree.invalidMembers) against \(tokens.invalidMembers)"),
                    file: file, line: line)
                return false
            }
            decoded = !tree.failed
        }
        let treeResult = Result { try T(lexiconJSON: value.json) }
        let publicResult = Result { try T(dataModel: value) }
        XCTAssertEqual(
            publicResult.errorDescription, treeResult.errorDescription, "\(label()): another error",
            file: file, line: line)
        if case .success(let expected) = treeResult, case .success(let actual) = publicResult {
            XCTAssertEqual(actual, expected, "\(label()): another value", file: file, line: line)
        }
        return decoded
    }

    /// Every data-model fixture (its CBOR and its JSON, which must be the same value) agrees as a
    /// value, as a post, as an unknown field of a page, inside a timeline item, as unknown and listed
    /// union members, and as a firehose message.
    func testTheUpstreamFixturesDecodeTheSameFromCBORAndFromJSON() throws {
        var documents: [(String, AtprotoDataModelValue)] = []
        for file in ["data-model-fixtures.json", "data-model-valid.json"] {
            guard case .array(let items) = try Paths.interopJSON("data-model/\(file)") else { continue }
            for (index, item) in items.enumerated() {
                guard let json = item.objectValue?["json"], let value = try? AtprotoDataModelValue(json: json) else {
                    continue
                }
                if let base64 = item.objectValue?["cbor_base64"]?.stringValue,
                    let cbor = Data(base64Encoded: base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4))
                {
                    XCTAssertEqual(try DAGCBOR.decode(cbor), value, "\(file)[\(index)]: the CBOR is another value")
                }
                documents.append(("\(file)[\(index)]", value))
            }
        }
        for file in ["record-data-valid.json", "record-data-invalid.json"] {
            guard case .array(let items) = try Paths.interopJSON("lexicon/\(file)") else { continue }
            for (index, item) in items.enumerated() {
                if let data = item.objectValue?["data"], let value = try? AtprotoDataModelValue(json: data) {
                    documents.append(("\(file)[\(index)]", value))
                }
            }
        }
        XCTAssertGreaterThan(documents.count, 50)
        var decoded = 0
        for (name, value) in documents {
            let fields = value.mapValue ?? ["value": value]
            var page = fields
            page["feed"] = .array([])
            var post = try AtprotoDataModelValue(json: .object(Paths.minimalPost)).mapValue ?? [:]
            post["record"] = value
            var unknownMember = fields
            unknownMember["$type"] = .string("com.example.notListed")
            var invalidMember = fields
            invalidMember["$type"] = .string("app.bsky.embed.external#view")
            post["embed"] = .map(unknownMember)
            var item: [String: AtprotoDataModelValue] = ["post": .map(post), "reason": .map(invalidMember)]
            item.merge(fields) { known, _ in known }
            let pages: [AtprotoDataModelValue] = [
                .map(page), .map(["feed": .array([.map(item), .map(["post": .map(post)])])]),
            ]
            for (index, variant) in pages.enumerated()
            where assertPathsAgree(AppBskyFeedGetTimeline.Output.self, variant, "\(name) variant \(index)") {
                decoded += 1
            }
            assertPathsAgree(LexiconUnknownValue.self, value, name)
            assertPathsAgree(AppBskyFeedPost.self, value, "\(name) as a post")
            var message = fields
            message["$type"] = .string("com.atproto.sync.subscribeRepos#commit")
            assertPathsAgree(ComAtprotoSyncSubscribeRepos.Message.self, .map(message), "\(name) as a commit")
        }
        XCTAssertGreaterThan(decoded, documents.count, "most fixtures should decode inside a page")
    }

    /// Seeded random timeline pages (those that are data-model values) agree.
    func testRandomPagesDecodeTheSameFromCBORAndFromJSON() throws {
        var compared = 0
        var decoded = 0
        for seed in 0..<UInt64(400) {
            var random = RandomPage(seed: seed)
            guard let json = try? JSONValue.parse(Data(random.page())),
                let value = try? AtprotoDataModelValue(json: json)
            else { continue }
            // Through DAG-CBOR and back, as a value read from the wire would be.
            let read = try DAGCBOR.decode(DAGCBOR.encode(value))
            compared += 1
            if assertPathsAgree(AppBskyFeedGetTimeline.Output.self, read, "random page, seed \(seed)") { decoded += 1 }
        }
        XCTAssertGreaterThan(compared, 50)
        XCTAssertGreaterThan(decoded, compared / 3)
    }

    /// Maps past the size searched key by key (64 members) and below it, with `null` in optional
    /// fields (kept among the unknown fields) and unknown members of every kind, agree.
    func testSmallAndLargeMapsWithNullsAgree() {
        for extra in [0, 3, 63, 64, 65, 200] {
            var post: [String: AtprotoDataModelValue] = [
                "$type": .string("app.bsky.feed.post"), "text": .string("t"),
                "createdAt": .string("2024-01-01T00:00:00Z"),
                "langs": .null, "embed": .null, "reply": .map(["root": .null]),
            ]
            for index in 0..<extra {
                post["x\(index)"] =
                    [.null, .bytes(Data([UInt8(index % 256)])), .link(CID(sha256Of: [1])), .integer(index)][
                        index % 4]
            }
            assertPathsAgree(AppBskyFeedPost.self, .map(post), "a post with \(extra) unknown members")
            post["reply"] = nil
            XCTAssertTrue(assertPathsAgree(AppBskyFeedPost.self, .map(post), "\(extra) unknown members, no reply"))
            let decoded = try? AppBskyFeedPost(dataModel: .map(post))
            XCTAssertEqual(
                decoded?.unknownFields.count, extra + 3, "the nulls, `$type` and the unknown members are kept")
        }
    }

    // MARK: Firehose commits

    static let did = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    static let records: [(String, AtprotoDataModelValue)] = [
        (
            "app.bsky.feed.post/3k2b",
            .map([
                "$type": .string("app.bsky.feed.post"), "text": .string("hello firehose"),
                "createdAt": .string("2024-01-01T00:00:00.000Z"), "extra": .bytes(Data([1, 2, 3])),
                "embed": .map([
                    "$type": .string("app.bsky.embed.images"),
                    "images": .array([
                        .map([
                            "alt": .string("a"),
                            "image": .map([
                                "$type": .string("blob"), "ref": .link(CID(sha256Of: [9])),
                                "mimeType": .string("image/png"), "size": .integer(3),
                            ]),
                        ])
                    ]),
                ]),
            ])
        ),
        (
            "app.bsky.feed.like/3k2c",
            .map([
                "$type": .string("app.bsky.feed.like"), "createdAt": .string("2024-01-01T00:00:00.000Z"),
                "subject": .map(["uri": .string("at://\(did)/app.bsky.feed.post/3k2a"), "cid": .string("bafyrei")]),
            ])
        ),
        // A post whose text is not a string: invalid, with the reason the JSON path gives.
        ("app.bsky.feed.post/3k2d", .map(["$type": .string("app.bsky.feed.post"), "text": .integer(1)])),
        ("com.example.custom/self", .map(["$type": .string("com.example.custom"), "n": .bytes(Data([7]))])),
    ]

    /// A `#commit` frame writing ``records``.
    static func commitFrame() -> Data {
        let blocks = records.map { CARBlock(encoding: $0.1) }
        let commit = CARBlock(encoding: .map(["did": .string(did), "version": .integer(3)]))
        let car = CARFile(roots: [commit.cid], blocks: [commit] + blocks)
        let ops: [AtprotoDataModelValue] = zip(records, blocks).map { record, block in
            .map(["action": .string("create"), "path": .string(record.0), "cid": .link(block.cid)])
        }
        let body = AtprotoDataModelValue.map([
            "seq": .integer(7), "rebase": .bool(false), "tooBig": .bool(false), "repo": .string(did),
            "commit": .link(commit.cid), "rev": .string("3k2d2222222aa"), "since": .null,
            "blocks": .bytes(Data(car.encoded())), "ops": .array(ops), "blobs": .array([]),
            "time": .string("2024-01-01T00:00:00.000Z"), "later": .map(["x": .link(commit.cid)]),
        ])
        return Data(DAGCBOR.encode(.map(["op": .integer(1), "t": .string("#commit")])) + DAGCBOR.encode(body))
    }

    /// A commit's message and records read from the decoded CBOR are those read from the JSON form:
    /// the CAR bytes as sent, links as their CIDs, unknown fields kept, an invalid record reported
    /// with the same reason.
    func testACommitAndItsRecordsDecodeTheSameFromCBORAndFromJSON() throws {
        let nsid = ComAtprotoSyncSubscribeRepos.nsid
        let frame = try XRPCEventFrame(decoding: Self.commitFrame())
        let value = try XCTUnwrap(frame.messageDataModel(nsid: nsid))
        XCTAssertEqual(value.json, frame.messageJSON(nsid: nsid))
        assertPathsAgree(ComAtprotoSyncSubscribeRepos.Message.self, value, "the commit")
        guard
            case .comAtprotoSyncSubscribeReposCommit(let commit) = try ComAtprotoSyncSubscribeRepos.Message(
                dataModel: value)
        else { return XCTFail("not a commit") }
        guard case .bytes(let car)? = value["blocks"] else { return XCTFail("no blocks") }
        XCTAssertEqual(commit.blocks.data, car)
        XCTAssertEqual(commit.unknownFields["later"], value["later"]?.json)

        let blocks = try RepoCommitBlocks(car: commit.blocks.data)
        let types = LexiconRecordTypes.bluesky
        var kinds: [String] = []
        for op in commit.ops {
            let operation = try blocks.operation(
                action: .create, path: op.path, cid: try op.cid.map { try CID($0.cid) }, types: types)
            let record = try XCTUnwrap(Self.records.first { $0.0 == op.path }?.1)
            let expected = types.record(record.json, collection: operation.collection)
            XCTAssertEqual(operation.record?.json, expected.json, op.path)
            switch (operation.record, expected) {
            case (.known(let got)?, .known(let want)):
                XCTAssertEqual(got.lexiconJSON, want.lexiconJSON)
                kinds.append("known")
            case (.unknown?, .unknown):
                kinds.append("unknown")
            case (.invalid(_, let got)?, .invalid(_, let want)):
                XCTAssertEqual("\(got)", "\(want)")
                kinds.append("invalid")
            default:
                XCTFail("\(op.path): \(String(describing: operation.record)) against \(expected)")
            }
        }
        XCTAssertEqual(kinds, ["known", "known", "invalid", "unknown"])
        let post = try XCTUnwrap(
            blocks.operation(
                action: .create, path: Self.records[0].0, cid: CARBlock(encoding: Self.records[0].1).cid,
                types: types
            ).record?.as(AppBskyFeedPost.self))
        XCTAssertEqual(post.unknownFields["extra"], .object(["$bytes": .string("AQID")]))
    }

    /// An event-stream message read from its body with the frame's `$type` beside it (what the
    /// stream does, without copying the body to add `$type`) is the message read from the body with
    /// `$type` set: the same value and unknown fields (a member's `$type` among them), the same
    /// whole value for a type the union does not list, keeping unknown fields or dropping them.
    func testAMessageReadWithItsTypeBesideTheBodyIsTheMessageWithItsTypeSet() throws {
        let nsid = ComAtprotoSyncSubscribeRepos.nsid
        guard case .message(_, let commit) = try XRPCEventFrame(decoding: Self.commitFrame()) else {
            return XCTFail("not a message frame")
        }
        let messages: [(String, [String: AtprotoDataModelValue])] = [
            ("#commit", commit),
            ("#identity", ["seq": .integer(3), "did": .string(Self.did), "time": .string("2024-01-01T00:00:00.000Z")]),
            ("#account", ["seq": .integer(4), "did": .string(Self.did), "active": .string("yes")]),
            ("#later", ["seq": .integer(5), "x": .map(["y": .bytes(Data([1]))])]),
            ("#identity", [:]),
        ]
        var written: [String] = []
        for (type, body) in messages {
            let fullType = nsid.rawValue + type
            var set = body
            set["$type"] = .string(fullType)
            for keeping in [true, false] {
                let beside = Paths.outcome(
                    Result<ComAtprotoSyncSubscribeRepos.Message, any Error> {
                        try LexiconJSONTokens.decodeWithoutFallback(
                            ComAtprotoSyncSubscribeRepos.Message.self, fromMessageBody: body, type: fullType,
                            keepsUnknownFields: keeping)
                    })
                let withType = Paths.outcome(
                    Result<ComAtprotoSyncSubscribeRepos.Message, any Error> {
                        try LexiconJSONTokens.decodeWithoutFallback(
                            ComAtprotoSyncSubscribeRepos.Message.self, fromDataModel: .map(set),
                            keepsUnknownFields: keeping)
                    })
                XCTAssertEqual(beside, withType, "\(type), \(keeping ? "keeping" : "dropping") unknown fields")
                if keeping, let text = beside.written { written.append(text) }
            }
        }
        // The member keeps its `$type` among its unknown fields, as read with `$type` set.
        let commitType = nsid.rawValue + "#commit"
        var set = commit
        set["$type"] = .string(commitType)
        guard
            case .comAtprotoSyncSubscribeReposCommit(let beside) = try LexiconJSONTokens.decodeWithoutFallback(
                ComAtprotoSyncSubscribeRepos.Message.self, fromMessageBody: commit, type: commitType,
                keepsUnknownFields: true),
            case .comAtprotoSyncSubscribeReposCommit(let withType) = try ComAtprotoSyncSubscribeRepos.Message(
                dataModel: .map(set))
        else { return XCTFail("not a commit") }
        XCTAssertEqual(beside.unknownFields, withType.unknownFields)
        XCTAssertEqual(beside.unknownFields["$type"], .string(commitType))
        // The member's `$type` is kept as read, and a type the union does not list keeps it too.
        XCTAssertTrue(written.first?.contains(#""$type":"com.atproto.sync.subscribeRepos#commit""#) == true)
        XCTAssertTrue(written.contains { $0.contains(#""$type":"com.atproto.sync.subscribeRepos#later""#) })
    }

    /// Commit frames cut short at every length, and with bytes changed, are errors or values that
    /// agree with the JSON path; none crashes.
    func testHostileCommitFramesAreErrorsOrAgree() {
        let nsid = ComAtprotoSyncSubscribeRepos.nsid
        let frame = Self.commitFrame()
        var frames: [Data] = (0..<frame.count).map { frame.prefix($0) }
        var random = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            var changed = frame
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                changed[Int.random(in: 0..<changed.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            frames.append(changed)
        }
        var rejected = 0
        for (index, bytes) in frames.enumerated() {
            guard let decoded = try? XRPCEventFrame(decoding: bytes), let value = decoded.messageDataModel(nsid: nsid)
            else {
                rejected += 1
                continue
            }
            assertPathsAgree(ComAtprotoSyncSubscribeRepos.Message.self, value, "frame \(index)")
        }
        XCTAssertGreaterThan(rejected, frame.count)
    }
}
