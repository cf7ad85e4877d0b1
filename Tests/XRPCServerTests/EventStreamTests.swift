import Foundation
import XCTest
import XRPCCore
import XRPCServer
import XRPCServerTestLexicons

/// Subscriptions: typed messages out as the frames the client's `XRPCEventFrame` reads.
final class EventStreamTests: XCTestCase {
    typealias Ticks = ComExampleTestSubscribeTicks

    func router() -> XRPCRouter {
        var router = XRPCRouter()
        router.subscription(Ticks.self) { call in
            let start = call.parameters.cursor ?? 0
            if start > 100 { throw XRPCServerError.declared(Ticks.Error.futureCursor, message: "cursor ahead") }
            return AsyncThrowingStream { continuation in
                continuation.yield(
                    .comExampleTestSubscribeTicksTick(.init(seq: start + 1, data: LexiconBytes(Data([1, 2, 3])))))
                continuation.yield(.comExampleTestSubscribeTicksNote(.init(text: "hello")))
                continuation.finish(throwing: XRPCServerError("ConsumerTooSlow", message: "you are behind"))
            }
        }
        return router
    }

    func frames(_ query: String) async throws -> [XRPCEventFrame] {
        let reply = await router().handle(
            XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.subscribeTicks", query: query))
        guard case .eventStream(let frames) = reply else {
            XCTFail("not a stream: \(reply)")
            return []
        }
        var decoded: [XRPCEventFrame] = []
        for await bytes in frames { decoded.append(try XRPCEventFrame(decoding: bytes)) }
        return decoded
    }

    func testMessagesBecomeFramesTheClientReads() async throws {
        let frames = try await frames("cursor=7")
        XCTAssertEqual(frames.count, 3)
        guard case .message(let type, _) = frames[0] else { return XCTFail("\(frames[0])") }
        XCTAssertEqual(type, "#tick")
        let first = try Ticks.Message(lexiconJSON: XCTUnwrap(frames[0].messageJSON(nsid: Ticks.nsid)))
        XCTAssertEqual(first, .comExampleTestSubscribeTicksTick(.init(seq: 8, data: LexiconBytes(Data([1, 2, 3])))))
        XCTAssertEqual(frames[0].sequence, 8)
        let second = try Ticks.Message(lexiconJSON: XCTUnwrap(frames[1].messageJSON(nsid: Ticks.nsid)))
        XCTAssertEqual(second, .comExampleTestSubscribeTicksNote(.init(text: "hello")))
        XCTAssertEqual(frames[2], .error(name: "ConsumerTooSlow", message: "you are behind"))
    }

    /// The same subscription framed as JSON, as a lexicon with `"subprotocol": "xrpc.v1.json"` is.
    enum JSONTicks: XRPCSubscription {
        static var nsid: NSID { Ticks.nsid }
        static var framing: XRPCEventFraming { .json }
        typealias Parameters = Ticks.Parameters
        typealias Message = Ticks.Message
        typealias Error = Ticks.Error
    }

    func testAJSONFramedSubscriptionSendsTextFramesTheClientReads() async throws {
        var router = XRPCRouter()
        router.subscription(JSONTicks.self) { call in
            AsyncThrowingStream { continuation in
                continuation.yield(.comExampleTestSubscribeTicksNote(.init(text: "hello")))
                continuation.finish(throwing: XRPCServerError("ConsumerTooSlow", message: "you are behind"))
            }
        }
        let reply = await router.handle(
            XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.subscribeTicks", query: ""))
        guard case .eventStream(let frames) = reply else { return XCTFail("not a stream: \(reply)") }
        XCTAssertEqual(frames.framing, .json)
        var decoded: [XRPCJSONEventFrame] = []
        for await bytes in frames {
            decoded.append(try XRPCJSONEventFrame(text: String(decoding: bytes, as: UTF8.self)))
        }
        XCTAssertEqual(decoded.count, 2)
        let first = try Ticks.Message(lexiconJSON: XCTUnwrap(decoded.first?.messageJSON(nsid: Ticks.nsid)))
        XCTAssertEqual(first, .comExampleTestSubscribeTicksNote(.init(text: "hello")))
        XCTAssertEqual(decoded.last, .error(name: "ConsumerTooSlow", message: "you are behind"))
    }

    func testARefusalBeforeTheUpgradeIsAnHTTPError() async throws {
        let reply = await router().handle(
            XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.subscribeTicks", query: "cursor=500"))
        guard case .response(let response) = reply else { return XCTFail("opened a stream") }
        let (status, name, _) = try TestRouter.error(response)
        XCTAssertEqual(status, 400)
        XCTAssertEqual(name, "FutureCursor")
        let bad = await router().handle(
            XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.subscribeTicks", query: "cursor=x"))
        guard case .response(let badResponse) = bad else { return XCTFail("opened a stream") }
        XCTAssertEqual(badResponse.status, 400)
    }

    func testOnlySubscriptionsAreUpgraded() {
        let router = router()
        XCTAssertTrue(router.servesSubscription(at: "/xrpc/com.example.test.subscribeTicks"))
        XCTAssertFalse(router.servesSubscription(at: "/xrpc/com.example.test.getItems"))
        XCTAssertFalse(router.servesSubscription(at: "/xrpc/com.example.test.none"))
        XCTAssertFalse(router.servesSubscription(at: "/com.example.test.subscribeTicks"))
    }

    func testPlainHTTPToASubscriptionIsRefused() async throws {
        let response = await router().respond(
            to: XRPCServerRequest(method: "GET", path: "/xrpc/com.example.test.subscribeTicks"))
        XCTAssertEqual(response.status, 400)
    }
}
