import AtprotoData
import AtprotoSyntax
import Foundation

/// The parts of a `#commit` body a proof needs, read from DAG-CBOR.
struct CommitEvent {
    struct Operation {
        var action: String
        var path: String
        var cid: CID?
        var prev: CID?
    }

    var repo: DID
    var rev: String
    var commit: CID
    var blocks: Data
    var operations: [Operation]
    var prevData: CID?

    init(_ body: [String: AtprotoDataModelValue]) throws(AtprotoVerificationError) {
        guard case .string(let repo)? = body["repo"], DID.syntaxError(in: repo) == nil else {
            throw AtprotoVerificationError(.malformedData, message: "#commit: repo is missing or not a DID")
        }
        guard case .string(let rev)? = body["rev"] else {
            throw AtprotoVerificationError(.malformedData, message: "#commit: rev is missing")
        }
        guard case .link(let commit)? = body["commit"] else {
            throw AtprotoVerificationError(.malformedData, message: "#commit: commit is missing or not a link")
        }
        guard case .bytes(let blocks)? = body["blocks"] else {
            throw AtprotoVerificationError(.malformedData, message: "#commit: blocks is missing or not bytes")
        }
        guard case .array(let items)? = body["ops"] else {
            throw AtprotoVerificationError(.malformedData, message: "#commit: ops is missing")
        }
        var operations: [Operation] = []
        for (index, item) in items.enumerated() {
            guard case .map(let op) = item, case .string(let action)? = op["action"],
                case .string(let path)? = op["path"]
            else {
                throw AtprotoVerificationError(.malformedData, message: "#commit: ops[\(index)] needs action and path")
            }
            operations.append(
                Operation(
                    action: action, path: path, cid: try Self.link(op["cid"], "ops[\(index)].cid"),
                    prev: try Self.link(op["prev"], "ops[\(index)].prev")))
        }
        self.repo = DID(rawValue: repo)
        self.rev = rev
        self.commit = commit
        self.blocks = blocks
        self.operations = operations
        self.prevData = try Self.link(body["prevData"], "prevData")
    }

    private static func link(_ value: AtprotoDataModelValue?, _ name: String) throws(AtprotoVerificationError) -> CID? {
        switch value {
        case nil, .null?: return nil
        case .link(let cid)?: return cid
        default: throw AtprotoVerificationError(.malformedData, message: "#commit: \(name) must be a link")
        }
    }
}

/// Sync 1.1's inductive proof: the operations hold in the commit's tree, and undoing them gives the
/// tree before.
///
/// Most commits are proved on the nodes' bytes (``SplicedInversion``); any other commit, and every
/// failure, goes through the whole ``MSTTree``, which says what is wrong.
enum CommitInversion {
    static func check(
        _ operations: [CommitEvent.Operation], data: CID, blocks: BlockMap, prevData: CID
    ) throws(AtprotoVerificationError) {
        if SplicedInversion.proves(operations, data: data, blocks: blocks, prevData: prevData) { return }
        try checkWithTree(operations, data: data, blocks: blocks, prevData: prevData)
    }

    /// The proof on the whole tree: any shape, and an error that says what failed.
    static func checkWithTree(
        _ operations: [CommitEvent.Operation], data: CID, blocks: BlockMap, prevData: CID
    ) throws(AtprotoVerificationError) {
        var tree = try MSTTree(root: data, blocks: blocks)
        for op in operations {
            let key = Array(op.path.utf8)
            guard MSTKey.isRepositoryPath(key) else {
                throw AtprotoVerificationError(
                    .malformedData, message: "\(op.action) of \(op.path.debugDescription): not a repository path")
            }
            let present = try tree.value(for: key)
            switch op.action {
            case "create", "update":
                guard let cid = op.cid, present == cid else {
                    throw AtprotoVerificationError(
                        .brokenProof,
                        message:
                            "\(op.action) \(op.path): the commit's tree holds \(present?.string ?? "nothing"), not \(op.cid?.string ?? "?")"
                    )
                }
                if op.action == "update", op.prev == nil {
                    throw AtprotoVerificationError(
                        .brokenProof, message: "update \(op.path) has no prev: it cannot be undone")
                }
            case "delete":
                guard present == nil else {
                    throw AtprotoVerificationError(
                        .brokenProof, message: "delete \(op.path): the commit's tree still holds it")
                }
                guard op.prev != nil else {
                    throw AtprotoVerificationError(
                        .brokenProof, message: "delete \(op.path) has no prev: it cannot be undone")
                }
            default:
                throw AtprotoVerificationError(
                    .malformedData, message: "an operation of unknown action \(op.action.debugDescription)")
            }
        }
        for op in operations.reversed() {
            let key = Array(op.path.utf8)
            if op.action == "create" {
                try tree.remove(key)
            } else if let prev = op.prev {
                try tree.set(key, prev)
            }
        }
        let root = tree.rootCID
        guard root == prevData else {
            throw AtprotoVerificationError(
                .brokenProof, message: "undoing the operations gives \(root), not prevData \(prevData)")
        }
    }
}
