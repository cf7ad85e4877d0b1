import BenchmarkSupport
import Foundation

/// A recorded-like Jetstream v2 stream: `xrpc.v1.json` message frames as the shared PDS's Jetstream
/// writes them (`{"$type":"message","payload":{"$type":"network.bsky.jetstream.subscribeEvents#commit",
/// ...}}`), with the mix of a busy network's commits: posts (some replies, some with a link facet and
/// languages), likes, reposts, follows and deletes, from a few hundred accounts. Seeded: the same
/// frames on every run.
enum SyntheticJetstream {
    static let words = [
        "the", "swift", "atproto", "feed", "today", "post", "skyline", "coffee", "rain", "build", "lexicon",
        "firehose", "jetstream", "morning", "release", "photo", "garden", "music", "thread", "friends",
    ]

    static func frames(count: Int, seed: UInt64 = 42) -> [String] {
        var random = WorkloadRandom(seed: seed)
        let dids = (0..<300).map { n in "did:plc:" + String(format: "%024x", n * 7919 + 1_000_003) }
        var frames: [String] = []
        frames.reserveCapacity(count)
        var microseconds = 1_764_000_000_000_000
        for seq in 1...max(1, count) {
            microseconds += Int.random(in: 50...900, using: &random)
            let did = dids[Int.random(in: 0..<dids.count, using: &random)]
            let rkey = tid(microseconds, &random)
            var payload: [String: Any] = [
                "$type": "network.bsky.jetstream.subscribeEvents#commit", "seq": seq, "did": did,
                "time": time(microseconds), "rev": tid(microseconds + 1, &random), "rkey": rkey,
            ]
            let pick = Int.random(in: 0..<100, using: &random)
            let author = dids[Int.random(in: 0..<dids.count, using: &random)]
            let subject = "at://\(author)/app.bsky.feed.post/" + tid(microseconds - 5_000_000, &random)
            let strongRef: [String: Any] = ["uri": subject, "cid": cid(&random)]
            let record: [String: Any]?
            switch pick {
            case 0..<45:
                payload["collection"] = "app.bsky.feed.post"
                record = post(time(microseconds), reply: pick < 10 ? strongRef : nil, link: pick % 7 == 0, &random)
            case 45..<80:
                payload["collection"] = "app.bsky.feed.like"
                record = ["$type": "app.bsky.feed.like", "subject": strongRef, "createdAt": time(microseconds)]
            case 80..<88:
                payload["collection"] = "app.bsky.feed.repost"
                record = ["$type": "app.bsky.feed.repost", "subject": strongRef, "createdAt": time(microseconds)]
            case 88..<96:
                payload["collection"] = "app.bsky.graph.follow"
                record = [
                    "$type": "app.bsky.graph.follow", "createdAt": time(microseconds),
                    "subject": dids[Int.random(in: 0..<dids.count, using: &random)],
                ]
            default:
                payload["collection"] = "app.bsky.feed.like"
                record = nil
            }
            if let record {
                payload["operation"] = "create"
                payload["record"] = record
                payload["cid"] = cid(&random)
            } else {
                payload["operation"] = "delete"
            }
            let frame: [String: Any] = ["$type": "message", "payload": payload]
            let data = (try? JSONSerialization.data(withJSONObject: frame, options: [.sortedKeys])) ?? Data()
            frames.append(String(decoding: data, as: UTF8.self))
        }
        return frames
    }

    static func post(_ createdAt: String, reply: [String: Any]?, link: Bool, _ random: inout WorkloadRandom)
        -> [String: Any]
    {
        var text = (0..<Int.random(in: 4...40, using: &random)).map { _ in
            words[Int.random(in: 0..<words.count, using: &random)]
        }.joined(separator: " ")
        var record: [String: Any] = ["$type": "app.bsky.feed.post", "text": text, "createdAt": createdAt]
        if Int.random(in: 0..<3, using: &random) > 0 { record["langs"] = ["en"] }
        if let reply { record["reply"] = ["root": reply, "parent": reply] }
        if link {
            let url = "https://example.com/\(Int.random(in: 0..<100_000, using: &random))"
            let start = text.utf8.count + 1
            text += " " + url
            record["text"] = text
            record["facets"] = [
                [
                    "index": ["byteStart": start, "byteEnd": start + url.utf8.count],
                    "features": [["$type": "app.bsky.richtext.facet#link", "uri": url]],
                ]
            ]
        }
        return record
    }

    static func time(_ microseconds: Int) -> String {
        let date = Date(timeIntervalSince1970: Double(microseconds / 1_000_000))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0,
            c.minute ?? 0, c.second ?? 0, microseconds % 1_000_000)
    }

    /// A TID-shaped key: 13 base32-sortable characters from the time and a clock id (the top character
    /// holds the top 4 bits of 64, so the first bit is 0 as a TID's must be).
    static func tid(_ microseconds: Int, _ random: inout WorkloadRandom) -> String {
        let alphabet = Array("234567abcdefghijklmnopqrstuvwxyz")
        var value = (UInt64(microseconds) << 10) | UInt64.random(in: 0..<1024, using: &random)
        var characters: [Character] = []
        for _ in 0..<13 {
            characters.append(alphabet[Int(value & 31)])
            value >>= 5
        }
        return String(characters.reversed())
    }

    /// A CIDv1 string of the right shape (dag-cbor, sha-256, base32), not of any real block.
    static func cid(_ random: inout WorkloadRandom) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        return "bafyrei" + String((0..<52).map { _ in alphabet[Int.random(in: 0..<32, using: &random)] })
    }
}
