import Foundation
import XRPCRuntime

/// A deterministic pseudo-random source (xorshift64*), so every run benchmarks the same frames.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A number in `range`.
    mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// `count` characters from `alphabet`.
    mutating func text(_ count: Int, from alphabet: [Character]) -> String {
        String((0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
    }
}

/// Builds event-stream frames that look like `com.atproto.sync.subscribeRepos#commit` messages.
struct SyntheticFirehose {
    private var random = SeededRandom(seed: 42)
    private let base32 = Array("abcdefghijklmnopqrstuvwxyz234567")
    private let words = [
        "the", "atproto", "firehose", "is", "a", "stream", "of", "commits", "from", "every", "repository",
        "posting", "today", "about", "swift", "and", "cbor", "🦋", "café", "naïve", "links", "records",
    ]

    /// `count` frames, each the DAG-CBOR header `{op: 1, t: "#commit"}` followed by the body.
    mutating func frames(_ count: Int) -> [Data] {
        (0..<count).map { frame(seq: 1_000_000 + $0) }
    }

    private mutating func frame(seq: Int) -> Data {
        let did = "did:plc:" + random.text(24, from: base32)
        let rev = tid()
        var records: [(path: String, block: CARBlock)] = []
        for _ in 0..<random.next(in: 1...3) {
            let rkey = tid()
            records.append(("app.bsky.feed.post/" + rkey, CARBlock(encoding: post(did: did))))
        }
        let commit = CARBlock(
            encoding: .map([
                "did": .string(did), "version": .integer(3), "rev": .string(rev), "prev": .null,
                "data": .link(cid()),
                "sig": .bytes(Data((0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) })),
            ]))
        let car = CARFile(roots: [commit.cid], blocks: [commit] + records.map(\.block))
        let ops: [AtprotoDataModelValue] = records.map { record in
            .map(["action": .string("create"), "path": .string(record.path), "cid": .link(record.block.cid)])
        }
        let body = AtprotoDataModelValue.map([
            "seq": .integer(seq), "rebase": .bool(false), "tooBig": .bool(false), "repo": .string(did),
            "commit": .link(commit.cid), "rev": .string(rev), "since": .string(tid()),
            "blocks": .bytes(Data(car.encoded())), "ops": .array(ops), "blobs": .array([]),
            "time": .string(datetime()), "prevData": .link(cid()),
        ])
        let header = AtprotoDataModelValue.map(["op": .integer(1), "t": .string("#commit")])
        return Data(DAGCBOR.encode(header) + DAGCBOR.encode(body))
    }

    /// An `app.bsky.feed.post` record; some are replies, some have facets or an image embed.
    private mutating func post(did: String) -> AtprotoDataModelValue {
        let text = (0..<random.next(in: 4...40)).map { _ in words[random.next(in: 0...words.count - 1)] }
            .joined(separator: " ")
        var fields: [String: AtprotoDataModelValue] = [
            "$type": .string("app.bsky.feed.post"), "text": .string(text), "createdAt": .string(datetime()),
            "langs": .array([.string("en")]),
        ]
        let kind = random.next(in: 0...3)
        if kind == 1 {
            let root = strongRef(did: did)
            fields["reply"] = .map(["root": root, "parent": random.next(in: 0...1) == 0 ? root : strongRef(did: did)])
        } else if kind == 2 {
            fields["facets"] = .array([
                .map([
                    "index": .map(["byteStart": .integer(0), "byteEnd": .integer(3)]),
                    "features": .array([
                        .map(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string("https://atproto.com")])
                    ]),
                ])
            ])
        } else if kind == 3 {
            let blob = AtprotoDataModelValue.map([
                "$type": .string("blob"), "ref": .link(CID(sha256Of: Array(tid().utf8), codec: .raw)),
                "mimeType": .string("image/jpeg"), "size": .integer(random.next(in: 10_000...900_000)),
            ])
            fields["embed"] = .map([
                "$type": .string("app.bsky.embed.images"),
                "images": .array([.map(["alt": .string("a picture"), "image": blob])]),
            ])
        }
        return .map(fields)
    }

    private mutating func strongRef(did: String) -> AtprotoDataModelValue {
        .map(["uri": .string("at://\(did)/app.bsky.feed.post/\(tid())"), "cid": .string(cid().string)])
    }

    private mutating func cid() -> CID {
        CID(sha256Of: (0..<8).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    private mutating func tid() -> String {
        "3k" + random.text(11, from: Array("234567abcdefghijklmnopqrstuvwxyz"))
    }

    private mutating func datetime() -> String {
        let (hour, minute) = (random.next(in: 10...23), random.next(in: 10...59))
        return "2024-11-23T\(hour):\(minute):\(random.next(in: 10...59)).\(random.next(in: 100...999))Z"
    }
}
