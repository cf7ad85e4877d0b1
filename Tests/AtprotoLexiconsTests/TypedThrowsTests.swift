import AtprotoLexicons
import Foundation
import XCTest

/// The declarations docs/Errors.md says throw one error type declare it, so a `catch` reads the
/// error's code and context without a cast: these calls only compile while they are typed.
final class TypedThrowsTests: XCTestCase {
    func testAStringFormatCheckThrowsAStringFormatError() {
        do {
            _ = try ATHandle(validating: "not a handle")
            XCTFail("an invalid handle was accepted")
        } catch {
            XCTAssertEqual(error.code, .invalidSyntax)
            XCTAssertEqual(error.value, "not a handle")
        }
    }

    func testAnAtprotoProxyHeaderThrowsAStringFormatError() {
        do {
            _ = try AtprotoProxy(headerValue: "did:web:api.bsky.app")
            XCTFail("a header without a service id was accepted")
        } catch {
            XCTAssertEqual(error.format, "atproto-proxy")
        }
    }

    func testDataModelChecksThrowADecodingErrorWithThePath() {
        let value: JSONValue = .object(["list": .array([.integer(1), .number(1.5)])])
        do {
            try AtprotoDataModel.validate(value)
            XCTFail("a float was accepted")
        } catch {
            XCTAssertEqual(error.path, ["list", "1"])
        }
        do {
            _ = try AtprotoDataModelValue(json: value)
            XCTFail("a float was read")
        } catch {
            XCTAssertEqual(error.path, ["list", "1"])
        }
        do {
            _ = try DAGCBOR.encode(json: .object(["b": .object(["$bytes": .string("***")])]))
            XCTFail("invalid base64 was encoded")
        } catch {
            XCTAssertEqual(error.path, ["b", "$bytes"])
        }
    }
}
