import Foundation
import SeededRandom
import XCTest
import XRPCTesting

@testable import LexGenKit
@testable import LexGenSchema

/// Broken input of every shape gives diagnostics, never a crash; the NSID rule matches the interop files.
final class RobustnessTests: XCTestCase {
    func testEveryTruncationOfARealLexiconIsReportedNotCrashed() throws {
        let url = try sharedFolder("lexicons/atproto/app/bsky/feed/post.json")
        let bytes = try [UInt8](Data(contentsOf: url))
        var rejected = 0
        var tried = 0
        let end = bytes.lastIndex(of: UInt8(ascii: "}")) ?? bytes.count
        for length in stride(from: 0, to: end, by: 3) {
            tried += 1
            let result = LexiconGenerator.generate([
                LexiconSource(displayPath: "post.json", relativePath: "post.json", bytes: Array(bytes[..<length]))
            ])
            if result.diagnostics.hasErrors {
                rejected += 1
                XCTAssertTrue(result.files.isEmpty)
                XCTAssertTrue(result.diagnostics.all.allSatisfy { $0.location?.file == "post.json" })
            }
        }
        XCTAssertEqual(rejected, tried, "every prefix that stops before the closing brace is invalid JSON")
    }

    func testMutatedLexiconsNeverCrashTheGenerator() throws {
        let url = try sharedFolder("lexicons/atproto/app/bsky/feed/defs.json")
        let original = try [UInt8](Data(contentsOf: url))
        var generator = SplitMix64(seed: 42)
        let replacements = Array("{}[]\":,0123456789-tfn \\#".utf8)
        var outcomes: Set<Bool> = []
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<3 {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = replacements[Int(generator.next() % UInt64(replacements.count))]
            }
            let result = LexiconGenerator.generate([
                LexiconSource(displayPath: "defs.json", relativePath: "defs.json", bytes: bytes)
            ])
            outcomes.insert(result.diagnostics.hasErrors)
            if result.diagnostics.hasErrors { XCTAssertTrue(result.files.isEmpty) }
        }
        XCTAssertTrue(outcomes.contains(true), "some mutations must be rejected")
    }
}
