import AtprotoIdentityResolution
import Foundation
import XCTest

/// The DID document size bound: a document of exactly the limit is read, one byte more is refused
/// before it is parsed.
final class DIDDocumentLimitTests: XCTestCase {
    func testADocumentOfExactlyTheLimitIsReadAndOneByteMoreIsRefused() throws {
        let json = Data(DIDDocumentTests.documentJSON(extra: "").utf8)
        XCTAssertEqual(try DIDDocument(jsonData: json, maximumSize: json.count).id.rawValue, DIDDocumentTests.did)
        XCTAssertThrowsError(try DIDDocument(jsonData: json, maximumSize: json.count - 1)) {
            XCTAssertTrue("\($0)".contains("over the limit of \(json.count - 1)"), "\($0)")
        }
    }

    func testTheDefaultLimitIs64KiB() throws {
        XCTAssertEqual(DIDDocument.defaultMaximumSize, 64 * 1024)
        func padded(_ count: Int) -> Data {
            let pad = String(repeating: "x", count: count)
            return Data(DIDDocumentTests.documentJSON(extra: ", \"pad\": \"" + pad + "\"").utf8)
        }
        let exact = padded(DIDDocument.defaultMaximumSize - padded(0).count)
        XCTAssertEqual(exact.count, DIDDocument.defaultMaximumSize)
        XCTAssertNoThrow(try DIDDocument(jsonData: exact))
        XCTAssertThrowsError(try DIDDocument(jsonData: exact + Data(" ".utf8)))
    }
}
