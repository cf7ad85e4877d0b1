import XCTest

@testable import LexGenKit
@testable import LexGenSchema

/// The lexicon text generated code embeds for runtime validation.
final class SchemaTextTests: XCTestCase {
    func testDescriptionsAreDroppedButAPropertyNamedDescriptionStays() throws {
        let swift = generatedSwift(
            #"""
            {"lexicon": 1, "id": "com.example.doc", "description": "the file",
             "defs": {"main": {"type": "object", "description": "an object", "properties": {
               "description": {"type": "string", "description": "a field named description", "maxLength": 10},
               "quote": {"type": "string", "knownValues": ["say \"#hi\""]}}}}}
            """#
        )
        let json =
            ###"{"defs":{"main":{"properties":{"description":{"maxLength":10,"type":"string"},"quote":{"knownValues":["say \"#hi\""],"type":"string"}},"type":"object"}},"id":"com.example.doc","lexicon":1}"###
        XCTAssertTrue(json.swiftRawLiteral.hasPrefix("##\""), "the text holds \"#, so the literal needs two hashes")
        assertContainsLines(swift, "static var comExampleDoc: Swift.String { " + json.swiftRawLiteral + " }")
        assertContainsLines(swift, #"public static var lexiconDefinition: Swift.String { "com.example.doc#main" }"#)
    }

    func testTheModuleFileListsEveryDocumentInItsCatalog() {
        let result = generate([
            #"{"lexicon": 1, "id": "com.example.a", "defs": {"main": {"type": "token"}}}"#,
            #"{"lexicon": 1, "id": "com.example.b", "defs": {"main": {"type": "string", "enum": ["x"]}}}"#,
        ])
        let moduleFile = result.files.last?.contents ?? ""
        assertContainsLines(
            moduleFile,
            """
            public static let catalog = XRPCCore.LexiconSchemaCatalog(
                documentTexts: [
                    comExampleA,
                    comExampleB,
                ],
                imports: []
            )
            """
        )
        XCTAssertFalse(
            moduleFile.contains("Validatable"),
            "no module-wide validation protocol: each type names the catalog (one getter, one conformance less)")
    }

    func testRawLiteralsUseEnoughHashes() {
        XCTAssertEqual("plain".swiftRawLiteral, "#\"plain\"#")
        XCTAssertEqual("a \"# b".swiftRawLiteral, "##\"a \"# b\"##")
        XCTAssertEqual("a \\# b".swiftRawLiteral, "##\"a \\# b\"##")
        XCTAssertEqual("line\nbreak".swiftRawLiteral, "\"line\\nbreak\"")
    }
}
