import AtprotoVerification
import BenchmarkSupport
import Foundation
import XRPCRuntime

/// A repository on the shared PDS grown to a realistic shape, and a stream of realistic commits.
///
/// What is assumed, and why:
/// - Records: 50 % likes, 20 % posts, 15 % follows, 15 % reposts, with TID record keys increasing in
///   time, as an active account's repository holds (likes dominate what accounts write; TIDs are what
///   the reference PDS gives records, so the tree's keys cluster at its right edge).
/// - Firehose commits: 90 % carry one operation, 7 % two, 3 % three (a post with its threadgate, a
///   follow-and-like); operations are 90 % creates, 9 % deletes (unlikes, unfollows, deleted posts),
///   1 % updates (profiles, lists), the rough shares of the live network's firehose. Each commit lands
///   on a repository of `records` records, so its proof walks a tree of realistic depth (about four
///   levels at 10,000 keys, fanout 16).
struct Workload {
    let session: PasswordSession
    let did: DID
    private var random = WorkloadRandom(seed: 27)
    /// Microseconds, advancing per record key from now, so that every run writes new keys.
    private var clock = UInt64(Date().timeIntervalSince1970 * 1_000_000)
    private(set) var keys: [(collection: String, rkey: String)] = []

    init(session: PasswordSession, did: DID) {
        self.session = session
        self.did = did
    }

    static let collections: [(name: String, share: Double)] = [
        ("app.bsky.feed.like", 0.5), ("app.bsky.feed.post", 0.2), ("app.bsky.graph.follow", 0.15),
        ("app.bsky.feed.repost", 0.15),
    ]

    /// A TID: 53 bits of microseconds and 10 bits of clock identifier, base32-sortable, 13 characters.
    mutating func nextRecordKey() -> String {
        clock += 1 + random.next() % 5_000_000
        let alphabet = Array("234567abcdefghijklmnopqrstuvwxyz")
        var value = (clock << 10) | (random.next() & 0x3FF)
        var characters: [Character] = []
        for _ in 0..<13 {
            characters.append(alphabet[Int(value & 31)])
            value >>= 5
        }
        return String(characters.reversed())
    }

    mutating func pickCollection() -> String {
        var draw = Double(random.next() % 10_000) / 10_000
        for (name, share) in Self.collections {
            if draw < share { return name }
            draw -= share
        }
        return Self.collections[0].name
    }

    /// The record of `collection`, valid for its lexicon.
    func record(_ collection: String, _ index: Int) -> String {
        let created = #""createdAt": "2026-11-25T00:00:00.000Z""#
        let subject =
            #"{"uri": "at://\#(did.rawValue)/app.bsky.feed.post/3kabcdefgh2\#(index % 10)", "cid": "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"}"#
        switch collection {
        case "app.bsky.feed.post":
            return #"{"$type": "\#(collection)", "text": "bench post \#(index) with some words in it", \#(created)}"#
        case "app.bsky.graph.follow":
            return #"{"$type": "\#(collection)", "subject": "did:plc:bench\#(index % 1000)", \#(created)}"#
        default: return #"{"$type": "\#(collection)", "subject": \#(subject), \#(created)}"#
        }
    }

    /// One applyWrites with `writes` (JSON objects).
    func apply(_ writes: [String]) async throws {
        let body = #"{"repo": "\#(did.rawValue)", "writes": [\#(writes.joined(separator: ","))]}"#
        let response = try await session.send(
            XRPCRequest(
                method: .post, nsid: "com.atproto.repo.applyWrites", body: Data(body.utf8),
                contentType: "application/json"))
        guard response.isSuccess else {
            throw BenchFailure("applyWrites: HTTP \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        }
    }

    /// Creates records, 200 per commit, until the repository holds `count` (from `existing`).
    mutating func grow(from existing: Int, to count: Int) async throws {
        var total = existing
        while total < count {
            var writes: [String] = []
            for _ in 0..<min(200, count - total) {
                let collection = pickCollection(), rkey = nextRecordKey()
                writes.append(create(collection, rkey, total + writes.count))
            }
            try await apply(writes)
            total += writes.count
        }
    }

    func create(_ collection: String, _ rkey: String, _ index: Int) -> String {
        #"{"$type": "com.atproto.repo.applyWrites#create", "collection": "\#(collection)", "rkey": "\#(rkey)", "value": \#(record(collection, index))}"#
    }

    /// `count` commits of one to three operations in the shares above. Deletes and updates pick
    /// records this stream created (the older records' keys are not known here without listing).
    mutating func commits(_ count: Int) async throws {
        for index in 0..<count {
            let draw = random.next() % 100
            let operations = draw < 90 ? 1 : draw < 97 ? 2 : 3
            var writes: [String] = []
            var touched: Set<String> = []
            for op in 0..<operations {
                let kind = random.next() % 100
                if kind >= 90, !keys.isEmpty {
                    let position = Int(random.next() % UInt64(keys.count))
                    let (collection, rkey) = keys[position]
                    guard touched.insert(rkey).inserted else { continue }
                    if kind < 99 {
                        keys.remove(at: position)
                        writes.append(
                            #"{"$type": "com.atproto.repo.applyWrites#delete", "collection": "\#(collection)", "rkey": "\#(rkey)"}"#
                        )
                    } else {
                        writes.append(
                            #"{"$type": "com.atproto.repo.applyWrites#update", "collection": "\#(collection)", "rkey": "\#(rkey)", "value": \#(record(collection, index * 3 + op + 1))}"#
                        )
                    }
                } else {
                    let collection = pickCollection(), rkey = nextRecordKey()
                    keys.append((collection, rkey))
                    touched.insert(rkey)
                    writes.append(create(collection, rkey, index * 3 + op))
                }
            }
            try await apply(writes)
        }
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
