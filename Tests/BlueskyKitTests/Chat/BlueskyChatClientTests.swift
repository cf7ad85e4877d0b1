// The chat preset against a stand-in chat service: every call carries the proxy header, a message's
// rich text reaches the service with its facets, and a message over the limits is refused unsent.

import BlueskyChat
import Foundation
import XCTest
import XRPCTesting

final class BlueskyChatClientTests: XCTestCase {
    private static let convo = """
        {"id":"c1","rev":"2","members":[{"did":"did:plc:bob","handle":"bob.test"}],"muted":false,"unreadCount":3}
        """

    /// A chat service stand-in: refuses a call without the chat proxy header, answers the four calls.
    private func chatService() -> StubAgent {
        StubAgent { request in
            guard request.headers["atproto-proxy"] == "did:web:api.bsky.chat#bsky_chat" else {
                return Self.json(400, #"{"error":"InvalidRequest","message":"not proxied to the chat service"}"#)
            }
            switch request.nsid.rawValue {
            case "chat.bsky.convo.listConvos":
                return Self.json(200, #"{"convos":[\#(Self.convo)],"cursor":"next"}"#)
            case "chat.bsky.convo.getConvoForMembers":
                return Self.json(200, #"{"convo":\#(Self.convo)}"#)
            case "chat.bsky.convo.sendMessage":
                let input = try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any]
                let message = input?["message"] as? [String: Any] ?? [:]
                let echoed = try JSONSerialization.data(withJSONObject: [
                    "id": "m1", "rev": "3", "text": message["text"] ?? "", "facets": message["facets"] ?? [],
                    "sender": ["did": "did:plc:alice"], "sentAt": "2026-11-29T08:00:00.000Z",
                ])
                return Self.json(200, String(decoding: echoed, as: UTF8.self))
            default:
                return Self.json(400, #"{"error":"MethodNotImplemented"}"#)
            }
        }
    }

    private static func json(_ status: Int, _ body: String) -> XRPCResponse {
        XRPCResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    func testConversationsAreListedThroughTheChatProxy() async throws {
        let agent = chatService()
        let chat = BlueskyChatClient(XRPCClient(agent: agent))
        let page = try await chat.conversations(limit: 10, readState: .unread)
        XCTAssertEqual(page.conversations.map(\.id), ["c1"])
        XCTAssertEqual(page.conversations.first?.unreadCount, 3)
        XCTAssertEqual(page.cursor, "next")
        let query = agent.requests.first?.queryItems ?? []
        XCTAssertTrue(query.contains(URLQueryItem(name: "readState", value: "unread")), "\(query)")
        let convo = try await chat.conversation(with: ["did:plc:bob"])
        XCTAssertEqual(convo.members.map(\.handle.rawValue), ["bob.test"])
    }

    func testAnotherServiceIsNamedInTheProxyHeader() async throws {
        let agent = chatService()
        let other = try AtprotoProxy(did: "did:web:chat.example.com", serviceID: "bsky_chat")
        let chat = BlueskyChatClient(XRPCClient(agent: agent), service: other)
        do {
            _ = try await chat.conversations()
            XCTFail("the stand-in only answers calls proxied to Bluesky's chat service")
        } catch {
            XCTAssertEqual(error.code, .serverError)
            XCTAssertEqual(error.name, "InvalidRequest")
        }
        XCTAssertEqual(agent.requests.first?.headers["atproto-proxy"], "did:web:chat.example.com#bsky_chat")
    }

    func testAMessageIsSentWithItsFacets() async throws {
        let agent = chatService()
        let chat = BlueskyChatClient(XRPCClient(agent: agent))
        let text = RichText.detectingLinksAndTags("read https://example.com #swift")
        XCTAssertEqual(text.facets.count, 2)
        let sent = try await chat.send(text, to: "c1")
        XCTAssertEqual(sent.text, "read https://example.com #swift")
        let facets = sent.facets ?? []
        XCTAssertEqual(facets.map(\.feature), [.link("https://example.com"), .tag("swift")])
        XCTAssertEqual(facets.first?.index.byteStart, 5)
        XCTAssertEqual(facets.first?.index.byteEnd, 24)
        let body = try XCTUnwrap(agent.requests.last?.body)
        let input = try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: Any])
        XCTAssertEqual(input["convoId"] as? String, "c1")
    }

    func testAMessageOverTheLimitsIsRefusedBeforeSending() async throws {
        let agent = chatService()
        let chat = BlueskyChatClient(XRPCClient(agent: agent))
        let cases: [(RichText, BlueskyChatMessageError.Code)] = [
            (RichText(text: String(repeating: "a", count: 1_001)), .textTooLong),
            (
                RichText(text: String(repeating: "é", count: 900) + String(repeating: "\u{1F600}", count: 2_100)),
                .textTooLong
            ),
            (
                RichText(text: "short", facets: [AppBskyRichtextFacet(bytes: 2..<9, feature: .tag("x"))]),
                .facetOutOfRange
            ),
        ]
        for (text, code) in cases {
            do {
                _ = try await chat.send(text, to: "c1")
                XCTFail("\(text.utf8Count) bytes sent")
            } catch let error as BlueskyChatMessageError {
                XCTAssertEqual(error.code, code, error.description)
            }
        }
        XCTAssertTrue(agent.requests.isEmpty, "nothing is sent: \(agent.requests.map(\.nsid))")
        let limit = RichText(text: String(repeating: "a", count: 1_000))
        _ = try await chat.send(limit, to: "c1")
        XCTAssertEqual(agent.requests.count, 1)
    }
}
