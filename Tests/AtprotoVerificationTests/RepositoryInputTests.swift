import AtprotoCrypto
import Foundation
import XCTest
import XRPCRuntime

@testable import AtprotoVerification

/// Hostile or broken repository data gives typed errors, without a signed commit from anywhere.
final class RepositoryInputTests: XCTestCase {
    let did = DID(rawValue: "did:plc:ewvi7nxzyoun6zhxrhs64oiz")
    let key = try? AtprotoPublicKey(didKey: "did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme")

    func commitBlock(signature: [UInt8], version: Int = 3, drop: String? = nil) -> (CID, Data) {
        var fields: [String: AtprotoDataModelValue] = [
            "did": .string(did.rawValue), "version": .integer(version), "data": .link(MSTTree.emptyRoot),
            "rev": .string("3l3qo2vutsw2b"), "prev": .null, "sig": .bytes(Data(signature)),
        ]
        if let drop { fields[drop] = nil }
        let bytes = DAGCBOR.encode(.map(fields))
        return (CID(sha256Of: bytes), Data(bytes))
    }

    func car(_ blocks: [(CID, Data)], root: CID) -> Data {
        Data(CARFile(roots: [root], blocks: blocks.map { CARBlock(cid: $0.0, bytes: $0.1) }).encoded())
    }

    func kind(_ body: () throws -> Void) -> AtprotoVerificationError.Code? {
        do {
            try body()
            return nil
        } catch { return (error as? AtprotoVerificationError)?.code }
    }

    /// The tree does not hash its nodes again: CommitCAR checked every block, the MST nodes included.
    func testAnMSTNodeThatDoesNotHashToItsCIDIsRefused() throws {
        let key = try XCTUnwrap(key)
        let (cid, bytes) = commitBlock(signature: Array(repeating: 1, count: 64))
        let node = try MSTTree.build([(Array("a.b.c/x".utf8), cid)]).write()
        let other = try MSTTree.build([(Array("a.b.c/y".utf8), cid)]).write()
        let lying = try XCTUnwrap(other.blocks[other.root])
        let liar = car([(cid, bytes), (node.root, Data(lying))], root: cid)
        XCTAssertEqual(
            kind { _ = try RecordProof.verify(car: liar, did: self.did, path: "a.b.c/x", key: key) }, .hashMismatch)
    }

    func testASignatureOfTheWrongLengthIsABadSignature() throws {
        let key = try XCTUnwrap(key)
        for length in [0, 63, 65, 72] {
            let (cid, bytes) = commitBlock(signature: Array(repeating: 1, count: length))
            let commit = try SignedCommit(block: bytes, cid: cid)
            XCTAssertFalse(commit.isSigned(by: key))
            XCTAssertEqual(kind { try commit.checkSignature(by: key) }, .badSignature, "\(length) bytes")
        }
        // 64 bytes that are no signature of this commit.
        let (cid, bytes) = commitBlock(signature: Array(repeating: 7, count: 64))
        let block = CARBlock(cid: cid, bytes: bytes)
        XCTAssertEqual(
            kind {
                _ = try RecordProof.verify(
                    car: self.car([(block.cid, block.bytes)], root: cid), did: self.did, path: "a.b.c/x", key: key)
            }, .badSignature)
    }

    func testCommitsMissingFieldsOrOfAnotherVersionAreMalformed() {
        for field in ["did", "data", "rev", "sig", "version"] {
            let (cid, bytes) = commitBlock(signature: Array(repeating: 1, count: 64), drop: field)
            XCTAssertEqual(kind { _ = try SignedCommit(block: bytes, cid: cid) }, .malformedData, field)
        }
        let (cid, bytes) = commitBlock(signature: Array(repeating: 1, count: 64), version: 4)
        XCTAssertEqual(kind { _ = try SignedCommit(block: bytes, cid: cid) }, .malformedData)
        XCTAssertEqual(kind { _ = try SignedCommit(block: Data([0xA1, 0x61]), cid: cid) }, .malformedData)
    }

    func testTruncatedOversizedAndHashMismatchedCARsAreRefused() throws {
        let key = try XCTUnwrap(key)
        let (cid, bytes) = commitBlock(signature: Array(repeating: 1, count: 64))
        let whole = car([(cid, bytes)], root: cid)
        for cut in stride(from: 1, to: whole.count, by: 7) {
            XCTAssertEqual(
                kind { _ = try RecordProof.verify(car: whole.prefix(cut), did: self.did, path: "a.b.c/x", key: key) },
                .malformedData, "cut at \(cut)")
        }
        let small = AtprotoVerificationLimits(maximumCARSize: 16)
        XCTAssertEqual(
            kind { _ = try RecordProof.verify(car: whole, did: self.did, path: "a.b.c/x", key: key, limits: small) },
            .limitExceeded)
        let fewBlocks = AtprotoVerificationLimits(maximumBlocks: 0)
        XCTAssertEqual(
            kind {
                _ = try RecordProof.verify(car: whole, did: self.did, path: "a.b.c/x", key: key, limits: fewBlocks)
            }, .limitExceeded)
        // A block whose bytes are not its CID's.
        let liar = car([(cid, bytes + Data([0]))], root: cid)
        XCTAssertEqual(
            kind { _ = try RecordProof.verify(car: liar, did: self.did, path: "a.b.c/x", key: key) }, .hashMismatch)
        // A root that is not in the CAR.
        let orphan = car([(cid, bytes)], root: CID(sha256Of: [1]))
        XCTAssertEqual(
            kind { _ = try RecordProof.verify(car: orphan, did: self.did, path: "a.b.c/x", key: key) }, .brokenProof)
        // The commit of another account is refused before its signature is looked at.
        XCTAssertEqual(
            kind {
                _ = try RecordProof.verify(
                    car: whole, did: DID(rawValue: "did:web:example.com"), path: "a.b.c/x", key: key)
            }, .wrongDID)
    }

    func testFirehoseBodiesOfTheWrongShapeAreMalformed() {
        let (cid, bytes) = commitBlock(signature: Array(repeating: 1, count: 64))
        let good: [String: AtprotoDataModelValue] = [
            "repo": .string(did.rawValue), "rev": .string("3l3qo2vutsw2b"), "commit": .link(cid),
            "blocks": .bytes(car([(cid, bytes)], root: cid)), "ops": .array([]),
        ]
        XCTAssertNoThrow(try CommitEvent(good))
        for (field, value) in [
            ("repo", AtprotoDataModelValue.integer(1)), ("commit", .string("x")), ("blocks", .string("x")),
            ("ops", .map([:])),
        ] {
            var body = good
            body[field] = value
            XCTAssertEqual(kind { _ = try CommitEvent(body) }, .malformedData, field)
        }
        var badOp = good
        badOp["ops"] = .array([.map(["action": .string("create")])])
        XCTAssertEqual(kind { _ = try CommitEvent(badOp) }, .malformedData)
    }
}
