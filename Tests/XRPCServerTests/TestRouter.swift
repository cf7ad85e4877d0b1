import Foundation
import XCTest
import XRPCCore
import XRPCServer
import XRPCServerTestLexicons

/// The router the core tests call: the three methods of the test lexicons, with handlers that show
/// what they were given.
enum TestRouter {
    static func make(configuration: XRPCRouter.Configuration = .init()) -> XRPCRouter {
        var router = XRPCRouter(configuration: configuration)
        router.query(ComExampleTestGetItems.self) { call in
            if call.parameters.feed.rawValue.hasSuffix("/missing") {
                throw XRPCServerError.declared(ComExampleTestGetItems.Error.unknownFeed, message: "no such feed")
            }
            if call.parameters.feed.rawValue.hasSuffix("/crash") {
                throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "secret path /etc/x"])
            }
            if call.parameters.feed.rawValue.hasSuffix("/slow") {
                try await Task.sleep(for: .seconds(10))
            }
            if call.parameters.feed.rawValue.hasSuffix("/too-long") {
                return ComExampleTestGetItems.Output(items: [String(repeating: "x", count: 30)])
            }
            let p = call.parameters
            let shown = [
                "feed=\(p.feed.rawValue)", "limit=\(p.limit.map(String.init) ?? "nil")",
                "tags=\((p.tags ?? []).joined(separator: ","))", "reverse=\(p.reverse.map { "\($0)" } ?? "nil")",
                "cursor=\(p.cursor ?? "nil")",
            ]
            return ComExampleTestGetItems.Output(items: shown)
        }
        router.procedure(ComExampleTestPutItem.self) { call in
            ComExampleTestPutItem.Output(stored: "\(call.input.text)/\(call.input.count.map(String.init) ?? "-")")
        }
        router.procedure(ComExampleTestPing.self) { _ in XRPCEmptyBody() }
        return router
    }

    /// The body of `response` as a JSON object.
    static func object(_ response: XRPCServerResponse, file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: JSONValue]
    {
        let json = try JSONValue.parse(response.body)
        return try XCTUnwrap(json.objectValue, "not an object: \(String(decoding: response.body, as: UTF8.self))")
    }

    /// The `items` of a getItems answer.
    static func items(_ response: XRPCServerResponse) throws -> [String] {
        try ComExampleTestGetItems.Output(lexiconJSON: JSONValue.parse(response.body)).items
    }

    /// `(status, error name, message)` of an error answer.
    static func error(_ response: XRPCServerResponse) throws -> (Int, String?, String?) {
        let fields = try object(response)
        return (response.status, fields["error"]?.stringValue, fields["message"]?.stringValue)
    }
}
