import SHA2
import XCTest

/// The CPU's SHA-256 instructions (when it has them) and the portable code give the same digests.
final class SHA256InstructionsTests: XCTestCase {
    /// The digest of `bytes` by the path chosen at run time, or by the portable code.
    private func digest(_ bytes: [UInt8], portable: Bool) -> SHA256.State {
        bytes.withUnsafeBytes { SHA256.digest(of: $0, portable: portable) }
    }

    func testPortablePathGivesTheNISTDigests() {
        let vectors: [(input: String, digest: String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ]
        for (input, expected) in vectors {
            XCTAssertEqual(hex(digest(Array(input.utf8), portable: true).bytes), expected, "portable \"\(input)\"")
            XCTAssertEqual(hex(digest(Array(input.utf8), portable: false).bytes), expected, "chosen \"\(input)\"")
        }
    }

    /// Random contents at every length from 0 to 1,100 (every tail and padding case, one to 18 whole
    /// blocks) and one input of 1 MB plus 3 bytes, through both paths.
    func testBothPathsAgreeOnRandomInputs() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...1100 {
            let input = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertEqual(digest(input, portable: false), digest(input, portable: true), "length \(length)")
        }
        let large = (0..<(1 << 20) + 3).map { _ in UInt8.random(in: 0...255, using: &generator) }
        XCTAssertEqual(digest(large, portable: false), digest(large, portable: true), "1 MB + 3")
    }

}
