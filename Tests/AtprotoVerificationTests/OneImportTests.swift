import AtprotoLexiconResolution
import XCTest

/// `import AtprotoLexiconResolution` is the one import lexicon resolution takes: this file imports
/// nothing else, so it compiles only while the module re-exports the identity resolver, the DNS
/// lookup and the verification types its signatures use.
final class LexiconResolutionOneImportTests: XCTestCase {
    struct NoRecords: DNSTXTLookup {
        func txtRecords(for name: String) async throws -> [String] { [] }
    }

    func resolver(identity: any IdentityResolver) throws -> LexiconResolver {
        try LexiconResolver(identityResolver: identity, dns: NoRecords(), verification: .required)
    }

    func testLexiconResolutionNeedsOneImport() {
        let limits = AtprotoVerificationLimits()
        XCTAssertGreaterThan(limits.maximumBlocks, 0)
    }
}
