import XCTest

@testable import LexGenKit

/// The client method's second form, which takes whole values: its doc comment names what it takes,
/// and only that (a query has no input; a procedure may have no parameters).
final class MethodFormTests: XCTestCase {
    private static let thing = #"{"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}"#
    private static let parameters =
        #"{"type": "params", "required": ["actor"], "properties": {"actor": {"type": "string", "format": "did"}}}"#

    func testAQueryFormTakesTheParametersAndNoInput() {
        let swift = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.getThing", "defs": {"main": {"type": "query",
              "parameters": \(Self.parameters), "output": {"encoding": "application/json", "schema": \(Self.thing)}}}}
            """)
        assertContainsLines(
            swift,
            """
            /// This form takes the parameters as a whole value.
            public func getThing(_ parameters: ComExampleGetThing.Parameters) async throws(XRPCCore.XRPCCallError) -> ComExampleGetThing.Output {
            """)
        XCTAssertFalse(swift.contains("input"), swift)
    }

    func testAProcedureFormSaysWhetherItTakesTheParametersTheInputOrBoth() {
        let inputOnly = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.putThing", "defs": {"main": {"type": "procedure",
              "input": {"encoding": "application/json", "schema": \(Self.thing)}}}}
            """)
        assertContainsLines(
            inputOnly,
            """
            /// This form takes the input as a whole value.
            public func putThing(_ input: ComExamplePutThing.Input) async throws(XRPCCore.XRPCCallError) -> ComExamplePutThing.Output {
            """)
        let parametersOnly = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.touchThing", "defs": {"main": {"type": "procedure",
              "parameters": \(Self.parameters)}}}
            """)
        assertContainsLines(
            parametersOnly,
            """
            /// This form takes the parameters as a whole value.
            public func touchThing(_ parameters: ComExampleTouchThing.Parameters) async throws(XRPCCore.XRPCCallError) -> ComExampleTouchThing.Output {
            """)
        let both = generatedSwift(
            """
            {"lexicon": 1, "id": "com.example.moveThing", "defs": {"main": {"type": "procedure",
              "parameters": \(Self.parameters), "input": {"encoding": "application/json", "schema": \(Self.thing)}}}}
            """)
        assertContainsLines(
            both,
            """
            /// This form takes the parameters and the input as whole values.
            public func moveThing(_ input: ComExampleMoveThing.Input, parameters: ComExampleMoveThing.Parameters) async throws(XRPCCore.XRPCCallError) -> ComExampleMoveThing.Output {
            """)
    }
}
