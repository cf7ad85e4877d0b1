import Foundation
import SeededRandom
import XCTest
import XRPCRuntime
import XRPCTesting

@testable import AtprotoVerification

/// A commit's signed bytes are cut out of its block rather than re-encoded: the two agree on every
/// commit the strict decoder takes (the interop data-model fixtures with a `sig` added, random
/// commits of every kind of field and of map sizes around each header length), and a block the
/// decoder refuses is refused as before.
final class SignedCommitBytesTests: XCTestCase {
    let cid = CID(sha256Of: [0x01])

    /// The old computation: the decoded map without `sig`, encoded again.
    func reencoded(_ fields: [String: AtprotoDataModelValue]) -> [UInt8] {
        var unsigned = fields
        unsigned["sig"] = nil
        return DAGCBOR.encode(.map(unsigned))
    }

    func commitFields(extra: [String: AtprotoDataModelValue] = [:], signature: Int = 64) -> [String:
        AtprotoDataModelValue]
    {
        var fields: [String: AtprotoDataModelValue] = [
            "did": .string("did:plc:ewvi7nxzyoun6zhxrhs64oiz"), "version": .integer(3),
            "data": .link(MSTTree.emptyRoot), "rev": .string("3l3qo2vutsw2b"), "prev": .null,
            "sig": .bytes(Data(repeating: 9, count: signature)),
        ]
        fields.merge(extra) { _, new in new }
        return fields
    }

    func assertCutMatchesReencoding(_ fields: [String: AtprotoDataModelValue], _ note: String) throws {
        let block = DAGCBOR.encode(.map(fields))
        let commit = try SignedCommit(block: Data(block), cid: cid)
        XCTAssertEqual(commit.unsignedBytes, reencoded(fields), note)
        XCTAssertEqual(block.withUnsafeBytes { SignedCommit.cuttingSignature(from: $0) }, reencoded(fields), note)
    }

    func testTheInteropFixturesCutAsTheyReencode() throws {
        let fixtures = try InteropFixtures.json("data-model/data-model-fixtures.json").arrayItems
        XCTAssertFalse(fixtures.isEmpty)
        for (index, fixture) in fixtures.enumerated() {
            let value = try AtprotoDataModelValue(json: try XCTUnwrap(fixture["json"]))
            // The fixture as a field of a commit, and (when a map) its fields as the commit's own.
            try assertCutMatchesReencoding(commitFields(extra: ["fixture": value]), "fixture \(index) as a field")
            if case .map(let entries) = value {
                try assertCutMatchesReencoding(commitFields(extra: entries), "fixture \(index)'s fields")
            }
        }
    }

    func randomValue(_ generator: inout SplitMix64, depth: Int = 0) -> AtprotoDataModelValue {
        let lengths = [0, 1, 23, 24, 255, 256, 300, 65_536]
        func length() -> Int { lengths[Int.random(in: 0..<lengths.count, using: &generator)] }
        switch Int.random(in: 0..<(depth < 3 ? 9 : 7), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            let magnitudes = [0, 23, 24, 255, 256, 65_535, 65_536, 1 << 32, Int.max]
            let magnitude = magnitudes[Int.random(in: 0..<magnitudes.count, using: &generator)]
            return .integer(Bool.random(using: &generator) ? magnitude : -1 - magnitude)
        case 3: return .string(String(repeating: "é", count: length() / 2))
        case 4: return .bytes(Data(repeating: 0xA5, count: length()))
        case 5: return .link(CID(sha256Of: [UInt8(truncatingIfNeeded: generator.next())]))
        case 6: return .string("sig")
        case 7:
            return .array(
                (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                    randomValue(&generator, depth: depth + 1)
                })
        default:
            var entries: [String: AtprotoDataModelValue] = [:]
            // A nested `sig` is not the commit's: only the top-level one is cut.
            for index in 0..<Int.random(in: 0...4, using: &generator) {
                entries[index == 0 ? "sig" : "k\(index)"] = randomValue(&generator, depth: depth + 1)
            }
            return .map(entries)
        }
    }

    /// Commits of 5 to 30 fields (maps of 23, 24 and 25 entries change the header's length when `sig`
    /// goes), keys sorting before and after `sig`, values of every kind and length.
    func testRandomCommitsCutAsTheyReencode() throws {
        var generator = SplitMix64(seed: 2026)
        let names = ["a", "s", "si", "sif", "sih", "zz", "aaaa", "prevData", "x"]
        for round in 0..<200 {
            var extra: [String: AtprotoDataModelValue] = [:]
            let count = round < 30 ? 17 + round % 3 : Int.random(in: 0...25, using: &generator)
            for index in 0..<count {
                let name = index < names.count ? names[index] : "f\(index)"
                extra[name] = randomValue(&generator)
            }
            let signature = [64, 0, 23, 24, 300][round % 5]
            try assertCutMatchesReencoding(commitFields(extra: extra, signature: signature), "round \(round)")
        }
    }

    func kind(_ body: () throws -> Void) -> AtprotoVerificationError.Code? {
        do {
            try body()
            return nil
        } catch { return (error as? AtprotoVerificationError)?.code }
    }

    /// Blocks whose bytes differ from their re-encoding are refused at decoding, as before: nothing
    /// non-canonical gets as far as the cut.
    func testNonCanonicalCommitsAreStillRefused() {
        var block = DAGCBOR.encode(.map(commitFields()))
        XCTAssertNoThrow(try SignedCommit(block: Data(block), cid: cid))
        // "data" (4 letters) and "did" (3) swapped round: out of canonical order.
        var unsorted: [UInt8] = [0xA6]
        let fields = commitFields()
        for name in ["data", "did", "prev", "rev", "sig", "version"] {
            unsorted += DAGCBOR.encode(.string(name))
            unsorted += DAGCBOR.encode(fields[name] ?? .null)
        }
        XCTAssertEqual(kind { _ = try SignedCommit(block: Data(unsorted), cid: self.cid) }, .malformedData)
        // The version (3) in two bytes rather than one.
        let version = DAGCBOR.encode(.string("version")) + [0x03]
        let at = block.count - version.count
        XCTAssertEqual(Array(block[at...]), version)
        block.replaceSubrange((block.count - 1)..., with: [0x18, 0x03])
        XCTAssertEqual(kind { _ = try SignedCommit(block: Data(block), cid: self.cid) }, .malformedData)
        // The map's header in two bytes, an indefinite-length map, and `sig` twice.
        var long = DAGCBOR.encode(.map(commitFields()))
        long.replaceSubrange(0..<1, with: [0xB8, 0x06])
        XCTAssertEqual(kind { _ = try SignedCommit(block: Data(long), cid: self.cid) }, .malformedData)
        var indefinite = DAGCBOR.encode(.map(commitFields()))
        indefinite.replaceSubrange(0..<1, with: [0xBF])
        indefinite.append(0xFF)
        XCTAssertEqual(kind { _ = try SignedCommit(block: Data(indefinite), cid: self.cid) }, .malformedData)
        let signature = DAGCBOR.encode(.string("sig")) + DAGCBOR.encode(.bytes(Data(repeating: 9, count: 64)))
        var twice = DAGCBOR.encode(.map(commitFields()))
        let sigStart = try? XCTUnwrap(twice.firstRange(of: signature)?.lowerBound)
        twice.insert(contentsOf: signature, at: sigStart ?? 0)
        twice[0] = 0xA7
        XCTAssertEqual(kind { _ = try SignedCommit(block: Data(twice), cid: self.cid) }, .malformedData)
        // The cut alone, on what the decoder would refuse: nil, never a wrong answer.
        for bad in [twice, indefinite, [0xA1], [0xA0], DAGCBOR.encode(.array([.string("sig")]))] {
            XCTAssertNil(bad.withUnsafeBytes { SignedCommit.cuttingSignature(from: $0) }, "\(bad.prefix(4))")
        }
        let unsigned = DAGCBOR.encode(.map(["did": .string("x")]))
        XCTAssertNil(unsigned.withUnsafeBytes { SignedCommit.cuttingSignature(from: $0) })
        let cutShort = Array(DAGCBOR.encode(.map(commitFields())).dropLast())
        XCTAssertNil(cutShort.withUnsafeBytes { SignedCommit.cuttingSignature(from: $0) })
    }
}
