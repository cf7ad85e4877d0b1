import AtprotoCrypto
import Foundation
import FuzzDriver
import XRPCRuntime

@testable import AtprotoVerification

/// A key no fuzzed commit is signed with: the harnesses go past the signature through internal entry
/// points instead (`proof(of:under:blocks:)`, `CommitInversion.check`).
private let fuzzKey = try? AtprotoPublicKey(didKey: "did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme")

/// Repositories, record proofs, MSTs and firehose commits.
let verificationTargets: [FuzzTarget] = [
    FuzzTarget("repository", "VerifiedRepository(car:did:key:) and RecordProof.verify over a CAR as given") { bytes in
        guard let key = fuzzKey else { return }
        let data = Data(bytes)
        let limits = AtprotoVerificationLimits(maximumCARSize: 1 << 20, maximumBlocks: 4096)
        let did = (try? CommitCAR.read(data, limits: limits))?.0.did ?? DID(rawValue: "did:plc:fuzz")
        _ = try? VerifiedRepository(car: data, did: did, key: key, limits: limits)
        _ = try? RecordProof.verify(car: data, did: did, path: "app.bsky.feed.post/3k", key: key, limits: limits)
    },
    FuzzTarget("mst", "the MST behind a commit: blocks re-hashed so fuzzed nodes link, then read, proved and edited") {
        bytes in
        guard let (root, blocks, keys) = RehashedBlocks.make(bytes) else { return }
        guard let rootBytes = blocks[root], let commit = try? SignedCommit(block: rootBytes, cid: root) else { return }
        for path in keys.prefix(8) + ["app.bsky.feed.post/3k"] {
            _ = try? RecordProof.proof(of: path, under: commit, blocks: BlockMap(blocks))
        }
        guard var tree = try? MSTTree(root: commit.data, blocks: BlockMap(blocks)) else { return }
        let value = CID(sha256Of: [1, 2, 3])
        for path in keys.prefix(8) {
            _ = try? tree.value(for: Array(path.utf8))
            _ = try? tree.set(Array(path.utf8 + [0x61]), value)
            _ = try? tree.remove(Array(path.utf8))
        }
        _ = tree.write()
        let operations = keys.prefix(4).map { CommitEvent.Operation(action: "create", path: $0, cid: value, prev: nil) }
        _ = try? CommitInversion.check(
            operations, data: commit.data, blocks: BlockMap(blocks), prevData: MSTTree.emptyRoot)
    },
    FuzzTarget("mst-ops", "MSTTree edits against a dictionary; written blocks read back the same (model check)") {
        bytes in
        MSTModelCheck.run(bytes)
    },
    FuzzTarget("firehose", "a #commit or #sync frame: the event, its CAR and the sync 1.1 inversion (no signature)") {
        bytes in
        guard case .message(let type, let body)? = try? XRPCEventFrame(decoding: bytes) else { return }
        let limits = AtprotoVerificationLimits(maximumCARSize: 2 << 20, maximumBlocks: 10_000)
        if type == "#sync", case .bytes(let blocks)? = body["blocks"] {
            _ = try? CommitCAR.read(blocks, root: nil, limits: limits)
            return
        }
        guard let event = try? CommitEvent(body),
            let (commit, blocks) = try? CommitCAR.read(event.blocks, root: event.commit, limits: limits)
        else { return }
        if let key = fuzzKey { _ = commit.isSigned(by: key) }
        let prevData = event.prevData ?? MSTTree.emptyRoot
        // The proof on the nodes' bytes never accepts what the whole tree refuses.
        if SplicedInversion.proves(event.operations, data: commit.data, blocks: blocks, prevData: prevData) {
            do {
                try CommitInversion.checkWithTree(
                    event.operations, data: commit.data, blocks: blocks, prevData: prevData)
            } catch {
                preconditionFailure("spliced inversion proved what the tree refuses: \(error)")
            }
        }
        _ = try? CommitInversion.check(event.operations, data: commit.data, blocks: blocks, prevData: prevData)
    },
]
