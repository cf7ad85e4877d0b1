import AtprotoData
import Foundation

/// One MST node: a left subtree and entries, each with a key, a value and a right subtree.
///
/// Subtrees are ``MSTPointer``s: a CID not yet read, or a node held in memory (built or changed
/// here). Keys are kept whole; prefix compression exists only in the encoded form.
struct MSTNode: Sendable, Hashable {
    struct Entry: Sendable, Hashable {
        var key: [UInt8]
        var value: CID
        var right: MSTPointer?
    }

    var left: MSTPointer?
    var entries: [Entry]

    static let empty = MSTNode(left: nil, entries: [])

    /// Reads a node block: `{"l": link | null, "e": [{"p": int, "k": bytes, "v": link, "t": link | null}]}`.
    init(block bytes: Data, cid: CID) throws(AtprotoVerificationError) {
        if let canonical = Self.readCanonical(bytes) {
            self = canonical
            return
        }
        let value: AtprotoDataModelValue
        do {
            value = try DAGCBOR.decode(bytes)
        } catch {
            throw AtprotoVerificationError(.malformedData, message: "MST node \(cid): not DAG-CBOR: \(error)")
        }
        guard case .map(let fields) = value else {
            throw AtprotoVerificationError(.malformedData, message: "MST node \(cid): not a map")
        }
        guard fields.keys.allSatisfy({ $0 == "l" || $0 == "e" }) else {
            throw AtprotoVerificationError(.malformedData, message: "MST node \(cid): fields other than l and e")
        }
        left = try Self.link(fields["l"], "l", in: cid)
        guard case .array(let items)? = fields["e"] else {
            throw AtprotoVerificationError(.malformedData, message: "MST node \(cid): e is missing or not an array")
        }
        var entries: [Entry] = []
        var previous: [UInt8] = []
        for (index, item) in items.enumerated() {
            guard case .map(let entry) = item, entry.count == 4 else {
                throw AtprotoVerificationError(
                    .malformedData, message: "MST node \(cid): e[\(index)] is not a map of p, k, v, t")
            }
            guard case .integer(let prefix)? = entry["p"], case .bytes(let suffix)? = entry["k"],
                case .link(let value)? = entry["v"]
            else {
                throw AtprotoVerificationError(
                    .malformedData, message: "MST node \(cid): e[\(index)] needs p (int), k (bytes), v (link)")
            }
            guard prefix >= 0, prefix <= previous.count, index > 0 || prefix == 0 else {
                throw AtprotoVerificationError(
                    .brokenProof, message: "MST node \(cid): e[\(index)].p = \(prefix) does not fit the previous key")
            }
            var key = [UInt8]()
            key.reserveCapacity(prefix + suffix.count)
            key.append(contentsOf: previous[..<prefix])
            key.append(contentsOf: suffix)
            guard key.count <= MSTKey.maximumLength else {
                throw AtprotoVerificationError(
                    .limitExceeded, message: "MST node \(cid): e[\(index)] has a key over \(MSTKey.maximumLength) bytes"
                )
            }
            entries.append(Entry(key: key, value: value, right: try Self.link(entry["t"], "e[\(index)].t", in: cid)))
            previous = key
        }
        self.entries = entries
    }

    init(left: MSTPointer?, entries: [Entry]) {
        self.left = left
        self.entries = entries
    }

    private static func link(_ value: AtprotoDataModelValue?, _ name: String, in cid: CID)
        throws(AtprotoVerificationError)
        -> MSTPointer?
    {
        switch value {
        case .null?: return nil
        case .link(let target)?: return .stored(target)
        default:
            throw AtprotoVerificationError(.malformedData, message: "MST node \(cid): \(name) must be a link or null")
        }
    }
}

/// A subtree: known by CID only, or held in memory.
///
/// Only `loaded` is indirect: a stored pointer, the common case (every subtree link read from a
/// block), is held inline rather than in a box of its own.
enum MSTPointer: Sendable, Hashable {
    /// A node not read yet (or never to be read: a partial tree carries only the nodes a proof needs).
    case stored(CID)
    /// A node in memory.
    indirect case loaded(MSTNode)
}
