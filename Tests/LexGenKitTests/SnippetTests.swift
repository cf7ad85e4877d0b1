import XCTest

@testable import LexGenKit
@testable import LexGenSchema

/// One small lexicon in, the Swift it must produce out: one test per def kind.
final class SnippetTests: XCTestCase {
    func testRecordBecomesStructWithCollectionKeyAndFieldReaders() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.note", "defs": {"main": {"type": "record", "key": "tid",
              "description": "A note.",
              "record": {"type": "object", "required": ["text"], "nullable": ["mood"],
                "properties": {"text": {"type": "string", "maxLength": 100}, "mood": {"type": "string"},
                  "count": {"type": "integer", "default": 3}}}}}}
            """
        )
        assertContainsLines(
            swift,
            """
            /// A note.
            public nonisolated struct ComExampleNote: XRPCCore.LexiconRecord, XRPCCore.LexiconValidatable {
            /// The lexicon node this type is checked against by `validate()`.
            public static var lexiconDefinition: Swift.String { "com.example.note#main" }
            /// The lexicon documents of the module that declares the type.
            public static var lexiconCatalog: XRPCCore.LexiconSchemaCatalog { LexiconsSchemas.catalog }
            /// The collection NSID, which is also the record's `$type`.
            public static var collection: XRPCCore.NSID { "com.example.note" }
            /// The kind of record key the collection uses.
            public static var recordKey: XRPCCore.RecordKeyType { .init(lexiconKey: "tid") }
            """
        )
        assertContainsLines(
            swift,
            """
            self.text = try reader.required("text")
            self.count = try reader.optional("count", default: 3, absentKeys: &absentDefaults)
            self.mood = try reader.optionalNullable("mood")
            self.absentDefaults = absentDefaults
            self.unknownFields = reader.remainingFields
            """
        )
        assertContainsLines(swift, "public var count: Swift.Int")
        assertContainsLines(swift, #"writer.write("count", count, default: 3, absentKeys: absentDefaults)"#)
        assertContainsLines(
            swift,
            "public init(text: Swift.String, count: Swift.Int = 3, mood: XRPCCore.LexiconNullable<Swift.String>? = nil, unknownFields: [Swift.String: XRPCCore.JSONValue] = [:]) {"
        )
        assertContainsLines(swift, "public var mood: XRPCCore.LexiconNullable<Swift.String>?")
        assertContainsLines(swift, "/// Default: `3`.")
        assertContainsLines(swift, "writer.writeUnknown(unknownFields)")
    }

    func testRequiredNullableFieldIsOptionalButMustBePresent() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.thing", "defs": {"main": {"type": "object",
              "required": ["a"], "nullable": ["a"], "properties": {"a": {"type": "integer"}}}}}
            """
        )
        assertContainsLines(swift, "public var a: Swift.Int?")
        assertContainsLines(swift, "self.a = try reader.requiredNullable(\"a\")")
        assertContainsLines(swift, "writer.writeNullable(\"a\", a)")
    }

    func testTokenBecomesEnumWithItsFullValue() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.defs", "defs": {"fast": {"type": "token", "description": "Go fast."}}}
            """
        )
        assertContainsLines(
            swift,
            """
            public nonisolated enum ComExampleDefs {
            /// Go fast.
            public nonisolated enum Fast: XRPCCore.LexiconToken {
            /// The token as it appears in string values.
            public static var value: Swift.String { "com.example.defs#fast" }
            """
        )
    }

    func testKnownValuesGetPredictableNamesAndStayOpen() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.defs", "defs": {"sort": {"type": "string",
              "knownValues": ["!hide", "most-likes", "default", "none", "com.example.other#fast", "9lives"]}}}
            """
        )
        assertContainsLines(
            swift, "public nonisolated struct Sort: XRPCCore.LexiconStringValue, XRPCCore.LexiconValidatable {")
        for line in [
            #"public static var hide: Self { Self(rawValue: "!hide") }"#,
            #"public static var mostLikes: Self { Self(rawValue: "most-likes") }"#,
            #"public static var `default`: Self { Self(rawValue: "default") }"#,
            #"public static var none_: Self { Self(rawValue: "none") }"#,
            #"public static var fast: Self { Self(rawValue: "com.example.other#fast") }"#,
            #"public static var _9lives: Self { Self(rawValue: "9lives") }"#,
        ] {
            assertContainsLines(swift, line)
        }
        XCTAssertFalse(swift.contains("allowedValues"), "knownValues is open: no closed set")
    }

    func testEnumStringIsClosedWithAllowedValues() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.defs", "defs": {"size": {"type": "string", "enum": ["s", "m"]}}}
            """
        )
        assertContainsLines(swift, #"public static var allowedValues: [Swift.String] { ["s", "m"] }"#)
    }

    func testUnionCasesNameTheWholeNSIDAndReadMainBothWays() {
        let result = generate([
            """
            {"lexicon": 1, "id": "com.example.post", "defs": {"main": {"type": "object", "properties": {
              "embed": {"type": "union", "refs": ["com.example.images", "com.example.video", "#local"]}}},
              "local": {"type": "object", "properties": {}}}}
            """,
            #"{"lexicon": 1, "id": "com.example.images", "defs": {"main": {"type": "object", "properties": {}}}}"#,
            #"{"lexicon": 1, "id": "com.example.video", "defs": {"main": {"type": "object", "properties": {}}}}"#,
        ])
        XCTAssertFalse(result.diagnostics.hasErrors)
        let swift = result.files[0].contents
        assertContainsLines(
            swift,
            """
            public nonisolated indirect enum Embed: XRPCCore.LexiconUnion, XRPCCore.LexiconValidatable {
            /// The lexicon node this type is checked against by `validate()`.
            public static var lexiconDefinition: Swift.String { "com.example.post#main/properties/embed" }
            /// The lexicon documents of the module that declares the type.
            public static var lexiconCatalog: XRPCCore.LexiconSchemaCatalog { LexiconsSchemas.catalog }
            case comExampleImages(ComExampleImages)
            case comExampleVideo(ComExampleVideo)
            case comExamplePostLocal(ComExamplePost.Local)
            /// A member whose `$type` this union does not list, kept as read.
            case unknown(XRPCCore.LexiconUnknownValue)
            """
        )
        assertContainsLines(
            swift,
            #"case "com.example.images", "com.example.images#main": self = .comExampleImages(try source.member()); return"#
        )
        assertContainsLines(
            swift,
            """
            } catch {
            self = .invalid(try source.invalidMember(error))
            return
            }
            self = .unknown(try source.unknownMember())
            """
        )
        // The tree and the text read through one `switch`.
        assertContainsLines(
            swift,
            """
            public init(lexiconJSON json: XRPCCore.JSONValue) throws {
            var source = try XRPCCore.LexiconUnionSource(json)
            try self.init(unionSource: &source)
            }

            @_spi(Generated) public init(lexiconTokens tokens: XRPCCore.LexiconJSONTokens) throws {
            var source = try XRPCCore.LexiconUnionSource(tokens)
            try self.init(unionSource: &source)
            }
            """
        )
    }

    func testClosedUnionRejectsOtherTypes() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.ops", "defs": {"main": {"type": "object", "properties": {
              "op": {"type": "union", "closed": true, "refs": ["#a"]}}}, "a": {"type": "object", "properties": {}}}}
            """
        )
        XCTAssertFalse(swift.contains("case unknown("))
        assertContainsLines(
            swift,
            #"throw XRPCCore.lexiconClosedUnionError(type: source.type, allowed: ["com.example.ops#a"])"#
        )
    }

    func testDataModelTypesAndFormatsMapToRuntimeTypes() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.data", "defs": {"main": {"type": "object", "properties": {
              "b": {"type": "bytes"}, "c": {"type": "cid-link"}, "d": {"type": "blob"}, "u": {"type": "unknown"},
              "did": {"type": "string", "format": "did"}, "at": {"type": "string", "format": "at-uri"},
              "when": {"type": "string", "format": "datetime"}, "list": {"type": "array", "items": {"type": "integer"}}}}}}
            """
        )
        for line in [
            "public var b: XRPCCore.LexiconBytes?", "public var c: XRPCCore.CIDLink?",
            "public var d: XRPCCore.LexiconBlob?",
            "public var u: XRPCCore.LexiconUnknownValue?", "public var did: XRPCCore.DID?",
            "public var at: XRPCCore.ATURI?", "public var when: XRPCCore.LexiconDatetime?",
            "public var list: [Swift.Int]?",
        ] {
            assertContainsLines(swift, line)
        }
    }

    func testQueryBecomesEndpointWithParametersOutputErrorsAndClientMethod() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.feed.getThings", "defs": {"main": {"type": "query",
              "parameters": {"type": "params", "required": ["actor"], "properties": {
                "actor": {"type": "string", "format": "did"}, "limit": {"type": "integer"}}},
              "output": {"encoding": "application/json", "schema": {"type": "object", "required": ["things"],
                "properties": {"things": {"type": "array", "items": {"type": "string"}}}}},
              "errors": [{"name": "NotFound"}, {"name": "default"}]}}}
            """
        )
        assertContainsLines(
            swift,
            """
            public nonisolated enum ComExampleFeedGetThings: XRPCCore.XRPCQuery {
            /// The lexicon's NSID.
            public static var nsid: XRPCCore.NSID { "com.example.feed.getThings" }
            """
        )
        assertContainsLines(swift, "case notFound")
        assertContainsLines(swift, "case `default`")
        // A refusal with a declared name is told apart from any other by the names listed here.
        assertContainsLines(swift, #"public static var declaredNames: [Swift.String] { ["NotFound", "default"] }"#)
        assertContainsLines(
            swift, "public nonisolated struct Parameters: XRPCCore.XRPCParameters, XRPCCore.LexiconValidatable {")
        assertContainsLines(
            swift, "public nonisolated struct Output: XRPCCore.LexiconObject, XRPCCore.LexiconValidatable {")
        assertContainsLines(
            swift,
            """
            nonisolated extension XRPCCore.XRPCClient.Com.Example.Feed {
            /// Calls `ComExampleFeedGetThings`.
            public func getThings(actor: XRPCCore.DID, limit: Swift.Int? = nil) async throws(XRPCCore.XRPCCallError) -> ComExampleFeedGetThings.Output {
            try await client.query(ComExampleFeedGetThings.self, parameters: .init(actor: actor, limit: limit))
            }
            """
        )
        assertContainsLines(
            swift,
            "public func getThings(_ parameters: ComExampleFeedGetThings.Parameters) async throws(XRPCCore.XRPCCallError) -> ComExampleFeedGetThings.Output {"
        )
    }

    func testProcedureWithRawInputAndNoOutputTakesBytes() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.upload", "defs": {"main": {"type": "procedure",
              "input": {"encoding": "*/*"}}}}
            """
        )
        assertContainsLines(swift, "public typealias Input = XRPCCore.XRPCRawBody")
        assertContainsLines(swift, "public typealias Output = XRPCCore.XRPCEmptyBody")
        assertContainsLines(swift, "public typealias Error = XRPCCore.XRPCUndeclaredError")
        assertContainsLines(
            swift,
            """
            public func upload(_ input: ComExampleUpload.Input) async throws(XRPCCore.XRPCCallError) -> ComExampleUpload.Output {
            try await client.procedure(ComExampleUpload.self, parameters: .init(), input: input)
            """
        )
    }

    func testSubscriptionDeclaresItsMessageUnion() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.stream", "defs": {"main": {"type": "subscription",
              "parameters": {"type": "params", "properties": {"cursor": {"type": "integer"}}},
              "message": {"schema": {"type": "union", "refs": ["#tick"]}}},
              "tick": {"type": "object", "required": ["seq"], "properties": {"seq": {"type": "integer"}}}}}
            """
        )
        assertContainsLines(swift, "public nonisolated enum ComExampleStream: XRPCCore.XRPCSubscription {")
        assertContainsLines(
            swift, "public nonisolated indirect enum Message: XRPCCore.LexiconUnion, XRPCCore.LexiconValidatable {")
        assertContainsLines(swift, "case comExampleStreamTick(ComExampleStream.Tick)")
    }

    func testASubscriptionWithTheJSONSubprotocolIsJSONFramedAndOthersAreNot() {
        let stream = """
            {"lexicon": 1, "id": "com.example.stream", "defs": {"main": {"type": "subscription",%@
              "message": {"schema": {"type": "union", "refs": ["#tick"]}}},
              "tick": {"type": "object", "properties": {"seq": {"type": "integer"}}}}}
            """
        let json = generatedSwift(stream.replacingOccurrences(of: "%@", with: #" "subprotocol": "xrpc.v1.json","#))
        assertContainsLines(json, "public static var framing: XRPCCore.XRPCEventFraming { .json }")
        let cbor = generatedSwift(stream.replacingOccurrences(of: "%@", with: ""))
        XCTAssertFalse(cbor.contains("framing"), "DAG-CBOR subscriptions keep the protocol's default")
        let unknown = generate([stream.replacingOccurrences(of: "%@", with: #" "subprotocol": "xrpc.v2.zstd","#)])
        XCTAssertEqual(unknown.diagnostics.errorCount, 1)
        XCTAssertTrue(
            unknown.diagnostics.all.first?.description.contains("unsupported subscription \"subprotocol\"") == true,
            "\(unknown.diagnostics.all)")
    }

    func testSubscriptionGetsAClientMethodReturningAnEventStreamWithoutConnecting() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.stream", "defs": {"main": {"type": "subscription",
              "description": "Ticks.",
              "parameters": {"type": "params", "properties": {"cursor": {"type": "integer"}}},
              "message": {"schema": {"type": "union", "refs": ["#tick"]}}},
              "tick": {"type": "object", "required": ["seq"], "properties": {"seq": {"type": "integer"}}}}}
            """
        )
        assertContainsLines(
            swift,
            """
            /// Ticks.
            public func stream(cursor: Swift.Int? = nil) -> XRPCCore.XRPCEventStream<ComExampleStream> {
            client.subscribe(ComExampleStream.self, parameters: .init(cursor: cursor))
            }
            """
        )
        assertContainsLines(
            swift,
            """
            public func stream(_ parameters: ComExampleStream.Parameters) -> XRPCCore.XRPCEventStream<ComExampleStream> {
            client.subscribe(ComExampleStream.self, parameters: parameters)
            """
        )
        XCTAssertFalse(swift.contains("try await client.subscribe"), "subscribing is lazy: nothing to await")
    }

    func testArrayDefOfUnionDeclaresItemUnionBesideAlias() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.prefs", "defs": {"preferences": {"type": "array",
              "items": {"type": "union", "refs": ["#a"]}}, "a": {"type": "object", "properties": {}}}}
            """
        )
        assertContainsLines(
            swift,
            "public nonisolated indirect enum PreferencesItem: XRPCCore.LexiconUnion, XRPCCore.LexiconValidatable {")
        assertContainsLines(swift, "public typealias Preferences = [ComExamplePrefs.PreferencesItem]")
    }

    func testKeywordPropertiesAreEscapedAndReservedNamesSuffixed() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.words", "defs": {"main": {"type": "object", "properties": {
              "default": {"type": "string"}, "self": {"type": "string"}, "unknownFields": {"type": "string"},
              "type": {"type": "string"}, "most-likes": {"type": "integer"}}}}}
            """
        )
        assertContainsLines(swift, "public var `default`: Swift.String?")
        assertContainsLines(swift, "public var self_: Swift.String?")
        assertContainsLines(swift, "public var unknownFields_: Swift.String?")
        assertContainsLines(swift, "public var type: Swift.String?")
        assertContainsLines(swift, "public var mostLikes: Swift.Int?")
        assertContainsLines(swift, #"self.mostLikes = try reader.optional("most-likes")"#)
    }

    func testNestedStructsAreBoxedAndUnionsIndirect() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.thread", "defs": {"node": {"type": "object", "required": ["root"],
              "properties": {
              "parent": {"type": "union", "refs": ["#node", "#missing"]}, "self": {"type": "ref", "ref": "#node"},
              "root": {"type": "ref", "ref": "#missing"},
              "children": {"type": "array", "items": {"type": "ref", "ref": "#node"}},
              "kind": {"type": "ref", "ref": "#kind"}}},
              "missing": {"type": "object", "properties": {}},
              "kind": {"type": "string", "knownValues": ["a", "b"]}}}
            """
        )
        // Every union is indirect; the field holding it stays a plain stored property.
        assertContainsLines(swift, "public var parent: ComExampleThread.Node.Parent?")
        assertContainsLines(
            swift, "public nonisolated indirect enum Parent: XRPCCore.LexiconUnion, XRPCCore.LexiconValidatable {")
        // A field holding a struct is boxed, required or optional: a computed property over its box...
        assertContainsLines(
            swift,
            """
            public var self_: ComExampleThread.Node? { get { _self_.wrappedValue } set { _self_.wrappedValue = newValue } }
            private var _self_: XRPCCore._LexiconBoxedOptional<ComExampleThread.Node>
            """)
        assertContainsLines(swift, "private var _root: XRPCCore._LexiconBoxed<ComExampleThread.Missing>")
        // ...set through the box by the initializers.
        assertContainsLines(swift, "self._root = .init(wrappedValue: root)")
        assertContainsLines(swift, #"self._root = .init(wrappedValue: try reader.required("root"))"#)
        // ...while arrays and string values are already one reference wide and stay as they are.
        assertContainsLines(swift, "public var children: [ComExampleThread.Node]?")
        assertContainsLines(swift, "public var kind: ComExampleThread.Kind?")
    }

    func testAccessLevelIsApplied() {
        let result = generate(
            [#"{"lexicon": 1, "id": "com.example.a", "defs": {"main": {"type": "token"}}}"#],
            access: .package
        )
        assertContainsLines(result.files[0].contents, "package nonisolated enum ComExampleA: XRPCCore.LexiconToken {")
    }

    func testUnionWithoutMembersOnlyRequiresAType() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.any", "defs": {"main": {"type": "object", "properties": {
              "value": {"type": "union", "refs": []}}}}}
            """
        )
        assertContainsLines(
            swift,
            """
            private init(unionSource source: inout XRPCCore.LexiconUnionSource) throws {
            self = .unknown(try source.unknownMember())
            }
            """
        )
        XCTAssertFalse(swift.contains("do {"), "nothing to try, so no do/catch (it would warn)")
    }
}
