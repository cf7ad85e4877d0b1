import AtprotoLexicons
import Foundation
import XCTest

/// The error types that had no code before issue 23 now carry one, set where the failure is found,
/// and every package error reads the same way through `AtprotoError`.
final class ErrorCodeTests: XCTestCase {
    private func jsonCode(_ text: String) -> JSONParseError.Code? {
        do {
            _ = try JSONValue.parse(Data(text.utf8))
            return nil
        } catch { return error.code }
    }

    func testJSONParseErrorsSayWhatIsWrong() {
        XCTAssertEqual(jsonCode(#"{"a": "#), .unexpectedEnd)
        XCTAssertEqual(jsonCode(#"{"a": 1"#), .unexpectedEnd)
        XCTAssertEqual(jsonCode(#"{"a" 1}"#), .unexpectedCharacter)
        XCTAssertEqual(jsonCode(#"[1, 2,]"#), .unexpectedCharacter)
        XCTAssertEqual(jsonCode(#"{"a": 1} x"#), .trailingData)
        XCTAssertEqual(jsonCode(#""\q""#), .invalidString)
        XCTAssertEqual(jsonCode("\"\u{01}\""), .invalidString)
        XCTAssertEqual(jsonCode(#"012"#), .invalidNumber)
        XCTAssertEqual(jsonCode(#"1e999"#), .invalidNumber)
        XCTAssertEqual(jsonCode(#"{"a": 1, "a": 2}"#), .duplicateKey)
        XCTAssertEqual(jsonCode(String(repeating: "[", count: 600)), .tooDeep)
        XCTAssertEqual(jsonCode(#"{"a": [1, {"b": null}]}"#), nil)
        XCTAssertThrowsError(try JSONValue.parse(Data([0x22, 0xFF, 0x22]))) {
            XCTAssertEqual(($0 as? JSONParseError)?.code, .invalidUTF8)
        }
    }

    private func decodingCode(_ text: String) -> LexiconDecodingError.Code? {
        do {
            _ = try LexiconDecoder().decode(AppBskyFeedPost.self, from: Data(text.utf8))
            return nil
        } catch let error as LexiconDecodingError {
            return error.code
        } catch {
            XCTFail("expected LexiconDecodingError, got \(error)")
            return nil
        }
    }

    func testLexiconDecodingErrorsTellAMissingFieldFromAWrongType() {
        let createdAt = #""createdAt": "2024-01-01T00:00:00Z""#
        XCTAssertEqual(decodingCode("{\(createdAt)}"), .missingField)
        XCTAssertEqual(decodingCode(#"{"text": 5, "# + createdAt + "}"), .typeMismatch)
        XCTAssertEqual(decodingCode(#"{"text": null, "# + createdAt + "}"), .typeMismatch)
        XCTAssertEqual(decodingCode(#"{"text": "hi", "# + createdAt + "}"), nil)
    }

    func testStringFormatErrorsHaveACodeAndAMessage() {
        XCTAssertThrowsError(try DID(validating: "did:Example")) { error in
            guard let error = error as? LexiconStringFormatError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, .invalidSyntax)
            XCTAssertEqual(error.format, "did")
            XCTAssertTrue(error.description.hasSuffix(error.message), error.description)
            XCTAssertFalse(error.message.isEmpty)
        }
    }

    func testAnyPackageErrorReadsTheSameWayThroughTheProtocol() {
        let errors: [any Error] = [
            JSONParseError(.tooDeep, offset: 3, line: 1, column: 4, message: "deep"),
            LexiconDecodingError(.missingField, path: ["text"], message: "required field is missing"),
            XRPCTransportError(.timedOut, nsid: "app.bsky.feed.getTimeline", message: "slow"),
            XRPCEventStreamError(.rejected, nsid: "com.atproto.sync.subscribeRepos", message: "refused"),
        ]
        let read = errors.compactMap { $0 as? any AtprotoError }.map { "\($0.code.rawValue): \($0.message)" }
        XCTAssertEqual(
            read,
            [
                "tooDeep: deep", "missingField: required field is missing", "timedOut: slow",
                "rejected: refused",
            ])
    }

    func testACodeMadeFromItsNameIsTheKnownCode() {
        let code = XRPCEventStreamError.Code(rawValue: "frameCheckFailed")
        XCTAssertEqual(code, .frameCheckFailed)
        XCTAssertEqual("\(code)", "frameCheckFailed")
        let literal: XRPCEventStreamError.Code = "somethingNew"
        XCTAssertNotEqual(literal, .frameCheckFailed)
        XCTAssertEqual(literal.rawValue, "somethingNew")
    }
}
