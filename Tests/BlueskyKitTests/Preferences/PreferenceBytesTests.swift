// Preference items kept as the bytes they were read as: an item this SDK does not know (or one it
// knows but nobody changed) goes back to the server byte for byte after an edit of another item.

import AtprotoLexicons
import BlueskyKit
import Foundation
import XCTest
import XRPCRuntime
import XRPCTesting

@testable import BlueskyPreferences

final class PreferenceBytesTests: XCTestCase {
    /// An item of a kind the SDK does not know, with keys out of order, numbers our serializer writes
    /// otherwise (`1.50`, `1e2`, an integer over 64 bits, `-0.0`), an escape and spaces.
    static let unknownItem =
        #"{"zeta": 1.50, "$type":"app.bsky.actor.defs#futurePref","big":12345678901234567890,"#
        + #""s":"caf\u00e9","nested":{"y":1e2,"x":[-0.0, true, null]}}"#
    static let knownItem = #"{"enabled": false ,"$type":"app.bsky.actor.defs#adultContentPref"}"#

    /// The preferences of one account: `putPreferences` bodies are kept as sent.
    actor Server {
        var stored: Data
        private(set) var puts: [Data] = []
        init(_ body: String) { stored = Data(body.utf8) }

        func answer(_ request: XRPCRequest) -> XRPCResponse {
            if request.nsid == AppBskyActorPutPreferences.nsid {
                stored = request.body ?? Data()
                puts.append(stored)
                return XRPCResponse(status: 200)
            }
            return XRPCResponse(status: 200, headers: ["content-type": "application/json"], body: stored)
        }
    }

    func testAnUnknownItemIsSentBackByteForByteAfterAnEdit() async throws {
        let server = Server(#"{ "preferences" : [ "# + Self.unknownItem + " , " + Self.knownItem + "]}")
        let client = XRPCClient(agent: StubAgent { request in await server.answer(request) })
        try await client.updateBlueskyPreferences { $0.hidePost("at://did:plc:x/app.bsky.feed.post/3k2a") }
        let puts = await server.puts
        let sent = try XCTUnwrap(puts.last)
        let text = String(decoding: sent, as: UTF8.self)
        XCTAssertTrue(
            text.hasPrefix(#"{"preferences":["# + Self.unknownItem + "," + Self.knownItem + ","),
            "the items not edited were not sent as read: \(text)")
        // The test means something: re-serializing the item gives other bytes.
        let reserialized = try JSONValue.parse(Data(Self.unknownItem.utf8)).serialized()
        XCTAssertNotEqual(reserialized, Data(Self.unknownItem.utf8))
        // And the edit itself is there.
        let read = try await client.blueskyPreferences()
        XCTAssertEqual(read.hiddenPosts, ["at://did:plc:x/app.bsky.feed.post/3k2a"])
        XCTAssertEqual(read.items.count, 3)
    }

    func testAChangedItemIsSerializedAndTheOthersKeepTheirBytes() async throws {
        let server = Server(#"{"preferences":["# + Self.knownItem + "," + Self.unknownItem + "]}")
        let client = XRPCClient(agent: StubAgent { request in await server.answer(request) })
        try await client.updateBlueskyPreferences { $0.setAdultContentEnabled(true) }
        let puts = await server.puts
        let text = String(decoding: try XCTUnwrap(puts.last), as: UTF8.self)
        XCTAssertTrue(text.contains(Self.unknownItem), text)
        XCTAssertFalse(text.contains(Self.knownItem), "the edited item was sent as read: \(text)")
        let adult = try await client.blueskyPreferences().adultContentEnabled
        XCTAssertTrue(adult)
    }

    func testSpansOfNestedAndEscapedValues() throws {
        let text = #"{"a\"b":[1,{"]":"}"}],"preferences":[ {"x":"\\\"]"} ,[1,[2]] , "s" ,3 ]}"#
        let bytes = Array(text.utf8)
        let list = try XCTUnwrap(JSONSpans.member("preferences", ofObjectIn: bytes))
        let elements = JSONSpans.elements(ofArrayIn: bytes, span: list).map {
            String(decoding: bytes[$0], as: UTF8.self)
        }
        XCTAssertEqual(elements, [#"{"x":"\\\"]"}"#, "[1,[2]]", #""s""#, "3"])
    }
}
