import Foundation
import XCTest
import XRPCRuntime

/// The folder of syntax cases shared with the other atproto implementations, `../shared/interop/syntax`
/// next to the package root; skips the test when it is not there.
private func interopSyntaxFolder() throws -> URL {
    let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // XRPCRuntimeTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
    let folder = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/interop/syntax")
    guard FileManager.default.fileExists(atPath: folder.path) else {
        throw XCTSkip(
            "interop syntax cases not found at \(folder.path): check out the shared folder next to the package")
    }
    return folder
}

/// The cases in an interop file: one a line, untrimmed; empty lines and lines starting with `#` skipped.
private func interopCases(_ file: String) throws -> [String] {
    let url = try interopSyntaxFolder().appendingPathComponent(file)
    let text = try String(contentsOf: url, encoding: .utf8)
    return text.components(separatedBy: "\n").filter { !$0.isEmpty && !$0.hasPrefix("#") }
}

/// Checks that `Format` accepts every case of `file` when `valid`, rejects every one otherwise.
private func assertInterop<Format: LexiconStringFormat>(
    _ format: Format.Type, _ file: String, valid: Bool, line: UInt = #line
) throws {
    let cases = try interopCases(file)
    XCTAssertFalse(cases.isEmpty, "\(file) has no cases", line: line)
    for text in cases {
        let reason = Format.syntaxError(in: text)
        XCTAssertEqual(Format(rawValue: text).isValid, reason == nil, line: line)
        if valid {
            XCTAssertNil(reason, "\(file): \(Format.formatName) rejected valid case \"\(text)\"", line: line)
        } else {
            XCTAssertNotNil(reason, "\(file): \(Format.formatName) accepted invalid case \"\(text)\"", line: line)
        }
    }
}

/// The string formats accept and reject what the atproto interop files say, and give access to their parts.
final class StringFormatTests: XCTestCase {
    func testATIdentifierSyntaxMatchesInteropFiles() throws {
        try assertInterop(ATIdentifier.self, "atidentifier_syntax_valid.txt", valid: true)
        try assertInterop(ATIdentifier.self, "atidentifier_syntax_invalid.txt", valid: false)
    }

    func testATURISyntaxMatchesInteropFiles() throws {
        try assertInterop(ATURI.self, "aturi_syntax_valid.txt", valid: true)
        try assertInterop(ATURI.self, "aturi_syntax_invalid.txt", valid: false)
    }

    func testCIDSyntaxMatchesInteropFiles() throws {
        try assertInterop(CIDString.self, "cid_syntax_valid.txt", valid: true)
        try assertInterop(CIDString.self, "cid_syntax_invalid.txt", valid: false)
    }

    func testDatetimeSyntaxMatchesInteropFiles() throws {
        try assertInterop(LexiconDatetime.self, "datetime_syntax_valid.txt", valid: true)
        try assertInterop(LexiconDatetime.self, "datetime_syntax_invalid.txt", valid: false)
    }

    func testDatetimeRejectsWellShapedButImpossibleValues() throws {
        try assertInterop(LexiconDatetime.self, "datetime_parse_invalid.txt", valid: false)
    }

    func testDIDSyntaxMatchesInteropFiles() throws {
        try assertInterop(DID.self, "did_syntax_valid.txt", valid: true)
        try assertInterop(DID.self, "did_syntax_invalid.txt", valid: false)
    }

    func testHandleSyntaxMatchesInteropFiles() throws {
        try assertInterop(ATHandle.self, "handle_syntax_valid.txt", valid: true)
        try assertInterop(ATHandle.self, "handle_syntax_invalid.txt", valid: false)
    }

    func testLanguageSyntaxMatchesInteropFiles() throws {
        try assertInterop(LexiconLanguageTag.self, "language_syntax_valid.txt", valid: true)
        try assertInterop(LexiconLanguageTag.self, "language_syntax_invalid.txt", valid: false)
    }

    func testLanguageAcceptsWellFormedTagsWithRepeatedSubtags() throws {
        try assertInterop(LexiconLanguageTag.self, "language_parse_invalid.txt", valid: true)
    }

    func testNSIDSyntaxMatchesInteropFiles() throws {
        try assertInterop(NSID.self, "nsid_syntax_valid.txt", valid: true)
        try assertInterop(NSID.self, "nsid_syntax_invalid.txt", valid: false)
    }

    func testRecordKeySyntaxMatchesInteropFiles() throws {
        try assertInterop(RecordKey.self, "recordkey_syntax_valid.txt", valid: true)
        try assertInterop(RecordKey.self, "recordkey_syntax_invalid.txt", valid: false)
    }

    func testTIDSyntaxMatchesInteropFiles() throws {
        try assertInterop(TID.self, "tid_syntax_valid.txt", valid: true)
        try assertInterop(TID.self, "tid_syntax_invalid.txt", valid: false)
    }

    func testURISyntaxMatchesInteropFiles() throws {
        try assertInterop(URIString.self, "uri_syntax_valid.txt", valid: true)
        try assertInterop(URIString.self, "uri_syntax_invalid.txt", valid: false)
    }

    func testValidatingInitializerThrowsErrorNamingFormatValueAndReason() {
        XCTAssertNoThrow(try DID(validating: "did:plc:z72i7hdynmk6r22z27h6tvur"))
        XCTAssertThrowsError(try ATHandle(validating: "john..test")) { error in
            guard let error = error as? LexiconStringFormatError else { return XCTFail("unexpected error \(error)") }
            XCTAssertEqual(error.format, "handle")
            XCTAssertEqual(error.value, "john..test")
            XCTAssertFalse(error.message.isEmpty)
            XCTAssertTrue(error.description.contains("john..test"))
        }
    }

    func testValuesKeepTheExactStringThroughValidationAndJSON() throws {
        let texts = ["1985-04-12T23:20:50.1230Z", "XX.LCS.MIT.EDU", "not a handle at all ", "at://a.b/c.d.e/%"]
        for text in texts {
            XCTAssertEqual(LexiconDatetime(rawValue: text).rawValue, text)
            XCTAssertEqual(ATHandle(rawValue: text).lexiconJSON, .string(text))
            let decoded = try JSONDecoder().decode([ATURI].self, from: JSONEncoder().encode([ATURI(rawValue: text)]))
            XCTAssertEqual(decoded.first?.rawValue, text, "decoding never rejects or rewrites a value")
        }
        XCTAssertEqual(
            try LexiconDatetime(validating: "1985-04-12T23:20:50.1230Z").rawValue, "1985-04-12T23:20:50.1230Z")
        XCTAssertEqual(try ATHandle(validating: "XX.LCS.MIT.EDU").description, "XX.LCS.MIT.EDU")
    }

    func testATURIExposesAuthorityCollectionAndRecordKey() {
        let uri = ATURI(rawValue: "at://did:plc:asdf123/app.bsky.feed.post/3jzfcijpj2z2a")
        XCTAssertEqual(uri.authority, ATIdentifier(rawValue: "did:plc:asdf123"))
        XCTAssertEqual(uri.authority.did, DID(rawValue: "did:plc:asdf123"))
        XCTAssertEqual(uri.collection, NSID(rawValue: "app.bsky.feed.post"))
        XCTAssertEqual(uri.rkey, RecordKey(rawValue: "3jzfcijpj2z2a"))

        let repo = ATURI(rawValue: "at://alice.bsky.social")
        XCTAssertEqual(repo.authority.handle, ATHandle(rawValue: "alice.bsky.social"))
        XCTAssertNil(repo.collection)
        XCTAssertNil(repo.rkey)
        XCTAssertNil(ATURI(rawValue: "at://alice.test/app.bsky.feed.post/").rkey)
    }

    func testATURIBuiltFromPartsRoundTripsToThoseParts() throws {
        let authority = ATIdentifier(DID(rawValue: "did:plc:asdf123"))
        let record = ATURI(authority: authority, collection: "app.bsky.feed.like", rkey: "self")
        XCTAssertEqual(record.rawValue, "at://did:plc:asdf123/app.bsky.feed.like/self")
        XCTAssertTrue(record.isValid)
        XCTAssertEqual(record.rkey, "self")
        XCTAssertEqual(
            ATURI(authority: authority, collection: "app.bsky.feed.like").rawValue,
            "at://did:plc:asdf123/app.bsky.feed.like")
        XCTAssertEqual(ATURI(authority: ATIdentifier(ATHandle(rawValue: "a.test"))).rawValue, "at://a.test")
    }

    func testDatetimeDateKeepsMicroseconds() throws {
        let cases: [(String, Int64)] = [
            ("1985-04-12T23:20:50.123456Z", 482_196_050_123_456),
            ("1985-04-12T23:20:50.123456789Z", 482_196_050_123_457),
            ("1985-04-12T23:20:50Z", 482_196_050_000_000),
            ("1985-04-12T23:20:50.1-07:00", 482_221_250_100_000),
            ("1985-04-12T23:20:50.000001+01:45", 482_189_750_000_001),
            ("2024-02-29T00:00:00.999999Z", 1_709_164_800_999_999),
            ("1969-12-31T23:59:59.999999Z", -1),
            ("0000-01-01T00:00:00.000Z", -62_167_219_200_000_000),
        ]
        for (text, micros) in cases {
            let date = try XCTUnwrap(LexiconDatetime(rawValue: text).date, text)
            XCTAssertEqual(Int64((date.timeIntervalSince1970 * 1e6).rounded()), micros, text)
        }
        XCTAssertNil(LexiconDatetime(rawValue: "1985-02-29T00:00:00Z").date, "1985 is not a leap year")
        XCTAssertNil(LexiconDatetime(rawValue: "1985-04-12T23:20:50.123-00:00").date)
    }

    func testDatetimeWrittenFromDateIsValidAndReadsBack() throws {
        let date = Date(timeIntervalSince1970: 482_196_050.123456)
        XCTAssertEqual(LexiconDatetime(date).rawValue, "1985-04-12T23:20:50.123Z")
        XCTAssertEqual(LexiconDatetime(date, fractionalDigits: 6).rawValue, "1985-04-12T23:20:50.123456Z")
        XCTAssertEqual(LexiconDatetime(date, fractionalDigits: 0).rawValue, "1985-04-12T23:20:50Z")
        XCTAssertEqual(LexiconDatetime(Date(timeIntervalSince1970: -0.5)).rawValue, "1969-12-31T23:59:59.500Z")
        XCTAssertEqual(LexiconDatetime(Date(timeIntervalSince1970: -1e15)).rawValue, "0000-01-01T00:00:00.000Z")
        let now = LexiconDatetime.now()
        XCTAssertTrue(now.isValid, now.rawValue)
        let back = try XCTUnwrap(LexiconDatetime(date, fractionalDigits: 6).date)
        XCTAssertEqual(back.timeIntervalSince1970, date.timeIntervalSince1970, accuracy: 1e-6)
    }

    func testDIDNSIDAndHandleParts() {
        XCTAssertEqual(DID(rawValue: "did:plc:z72i7hdynmk6r22z27h6tvur").method, "plc")
        XCTAssertEqual(DID(rawValue: "did:web:example.com:user").methodSpecificIdentifier, "example.com:user")
        XCTAssertNil(DID(rawValue: "alice.test").method)
        XCTAssertNil(DID(rawValue: "did::x").method)

        let nsid = NSID(rawValue: "app.bsky.feed.post")
        XCTAssertEqual(nsid.authority, "feed.bsky.app")
        XCTAssertEqual(nsid.name, "post")

        let handle = ATHandle(rawValue: "Alice.BSKY.Social")
        XCTAssertEqual(handle.normalized, ATHandle(rawValue: "alice.bsky.social"))
        XCTAssertTrue(handle.isEquivalent(to: "alice.bsky.social"))
        XCTAssertFalse(handle.isEquivalent(to: "alice.bsky.socia"))
        XCTAssertTrue(ATHandle.invalid.isValid)
        XCTAssertEqual(LexiconLanguageTag(rawValue: "PT-br").primaryLanguage, "pt")
    }
}
