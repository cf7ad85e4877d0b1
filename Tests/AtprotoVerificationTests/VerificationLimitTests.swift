import AtprotoCrypto
import Foundation
import XCTest
import XRPCRuntime

@testable import AtprotoVerification

/// ``AtprotoVerificationLimits`` at each bound (the CAR goes on to its signature check) and one past it
/// (``AtprotoVerificationError/Code/limitExceeded``).
final class VerificationLimitTests: XCTestCase {
    private let did = DID(rawValue: "did:plc:ewvi7nxzyoun6zhxrhs64oiz")
    private let key = try? AtprotoPublicKey(didKey: "did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme")

    /// A commit by `did` with a signature of the right length that no key made.
    private func commitBlock() -> (CID, Data) {
        let bytes = DAGCBOR.encode(
            .map([
                "did": .string(did.rawValue), "version": .integer(3), "data": .link(MSTTree.emptyRoot),
                "rev": .string("3l3qo2vutsw2b"), "prev": .null, "sig": .bytes(Data(repeating: 1, count: 64)),
            ]))
        return (CID(sha256Of: bytes), Data(bytes))
    }

    private func car(_ blocks: [(CID, Data)], root: CID) -> Data {
        Data(CARFile(roots: [root], blocks: blocks.map { CARBlock(cid: $0.0, bytes: $0.1) }).encoded())
    }

    /// The kind of error `RecordProof.verify` throws within `limits`.
    private func verify(_ car: Data, _ limits: AtprotoVerificationLimits) throws -> AtprotoVerificationError.Code? {
        let key = try XCTUnwrap(key)
        do {
            _ = try RecordProof.verify(car: car, did: did, path: "a.b.c/x", key: key, limits: limits)
            return nil
        } catch {
            return error.code
        }
    }

    private func commitCAR() -> (car: Data, commitSize: Int) {
        let (cid, bytes) = commitBlock()
        return (car([(cid, bytes)], root: cid), bytes.count)
    }

    func testCARSizeAtTheLimitIsReadAndOneByteLessIsExceeded() throws {
        let (car, _) = commitCAR()
        XCTAssertEqual(try verify(car, AtprotoVerificationLimits(maximumCARSize: car.count)), .badSignature)
        XCTAssertEqual(try verify(car, AtprotoVerificationLimits(maximumCARSize: car.count - 1)), .limitExceeded)
    }

    func testBlockCountAtTheLimitIsReadAndOneMoreIsExceeded() throws {
        let (cid, bytes) = commitBlock()
        let extra = Data([0xF6])
        let file = car([(cid, bytes), (CID(sha256Of: extra), extra)], root: cid)
        XCTAssertEqual(try verify(file, AtprotoVerificationLimits(maximumBlocks: 2)), .badSignature)
        XCTAssertEqual(try verify(file, AtprotoVerificationLimits(maximumBlocks: 1)), .limitExceeded)
    }

    func testBlockSizeAtTheLimitIsReadAndOneByteMoreIsExceeded() throws {
        let (car, size) = commitCAR()
        XCTAssertEqual(try verify(car, AtprotoVerificationLimits(maximumBlockSize: size)), .badSignature)
        XCTAssertEqual(try verify(car, AtprotoVerificationLimits(maximumBlockSize: size - 1)), .limitExceeded)
        XCTAssertEqual(AtprotoVerificationLimits().maximumBlockSize, CARFile.Limits.default.maximumBlockSize)
    }
}
