import Foundation
import XCTest
import XRPCCore
import XRPCServer
import XRPCServerTestLexicons

/// Routing, methods, status codes and error bodies, as the XRPC spec says a server answers.
final class RouterTests: XCTestCase {
    let router = TestRouter.make()

    func get(_ target: String, headers: HTTPHeaderFields = [:]) async -> XRPCServerResponse {
        await router.respond(to: XRPCServerRequest(method: "GET", target: target, headers: headers))
    }

    func testAQueryAnswersItsOutputAsJSON() async throws {
        let response = await get("/xrpc/com.example.test.getItems?feed=at://did:plc:abc/app.bsky.feed.generator/x")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.contentType, "application/json")
        let items = try TestRouter.items(response)
        XCTAssertEqual(items.first, "feed=at://did:plc:abc/app.bsky.feed.generator/x")
    }

    func testAnUnknownNSIDIsMethodNotImplemented() async throws {
        let response = await get("/xrpc/com.example.test.nothing")
        let (status, name, message) = try TestRouter.error(response)
        XCTAssertEqual(status, 501)
        XCTAssertEqual(name, "MethodNotImplemented")
        XCTAssertEqual(message?.contains("com.example.test.nothing"), true)
        XCTAssertEqual(response.contentType, "application/json; charset=utf-8")
    }

    func testAPathOutsideXRPCIsNotFound() async throws {
        let response = await get("/index.html")
        let (status, name, _) = try TestRouter.error(response)
        XCTAssertEqual(status, 404)
        XCTAssertEqual(name, "NotFound")
    }

    func testAQueryCalledWithPOSTIs405NamingGET() async throws {
        let response = await router.respond(
            to: XRPCServerRequest(method: "POST", path: "/xrpc/com.example.test.getItems", query: "feed=at://x/y/z"))
        let (status, name, message) = try TestRouter.error(response)
        XCTAssertEqual(status, 405)
        XCTAssertEqual(name, "InvalidRequest")
        XCTAssertEqual(response.headers["allow"], "GET")
        XCTAssertEqual(message?.contains("use GET"), true)
    }

    func testAProcedureCalledWithGETIs405NamingPOST() async throws {
        let response = await get("/xrpc/com.example.test.putItem")
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(response.headers["allow"], "POST")
    }

    func testADeclaredErrorKeepsItsLexiconName() async throws {
        let response = await get("/xrpc/com.example.test.getItems?feed=at://did:plc:a/app.bsky.feed.generator/missing")
        let (status, name, message) = try TestRouter.error(response)
        XCTAssertEqual(status, 400)
        XCTAssertEqual(name, "UnknownFeed")
        XCTAssertEqual(message, "no such feed")
    }

    func testAnyOtherHandlerErrorIs500WithoutItsText() async throws {
        let log = LogLines()
        let router = TestRouter.make(configuration: .init(log: { log.append($0) }))
        let response = await router.respond(
            to: XRPCServerRequest(
                method: "GET",
                target: "/xrpc/com.example.test.getItems?feed=at://did:plc:a/app.bsky.feed.generator/crash",
                headers: ["Authorization": "Bearer secret-token-value"]))
        let (status, name, message) = try TestRouter.error(response)
        XCTAssertEqual(status, 500)
        XCTAssertEqual(name, "InternalServerError")
        XCTAssertEqual(message?.contains("/etc/x"), false)
        let lines = log.lines
        XCTAssertEqual(lines.count, 1)
        XCTAssertEqual(lines.first?.contains("/etc/x"), true, "the cause goes to the log")
        XCTAssertEqual(lines.first?.contains("secret-token-value"), false, "never a credential")
    }

    func testOutputBreakingItsLexiconIs500WhenOutputIsValidated() async throws {
        let target = "/xrpc/com.example.test.getItems?feed=at://did:plc:a/app.bsky.feed.generator/too-long"
        let unchecked = await get(target)
        XCTAssertEqual(unchecked.status, 200, "off by default")
        let checking = TestRouter.make(configuration: .init(validatesOutput: true))
        let checked = await checking.respond(to: XRPCServerRequest(method: "GET", target: target))
        let (status, name, _) = try TestRouter.error(checked)
        XCTAssertEqual(status, 500)
        XCTAssertEqual(name, "InternalServerError")
    }

    func testAHandlerPastItsDeadlineIs503AndIsCancelled() async throws {
        let router = TestRouter.make(configuration: .init(handlerTimeout: .milliseconds(50)))
        let start = ContinuousClock.now
        let response = await router.respond(
            to: XRPCServerRequest(
                method: "GET",
                target: "/xrpc/com.example.test.getItems?feed=at://did:plc:a/app.bsky.feed.generator/slow"))
        let (status, name, _) = try TestRouter.error(response)
        XCTAssertEqual(status, 503)
        XCTAssertEqual(name, "NotEnoughResources")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "the handler was cancelled, not waited for")
        let quick = await router.respond(
            to: XRPCServerRequest(
                method: "GET", target: "/xrpc/com.example.test.getItems?feed=at://did:plc:a/app.bsky.feed.generator/r"))
        XCTAssertEqual(quick.status, 200)
    }

    func testAProcedureDecodesItsInput() async throws {
        let response = await router.respond(
            to: XRPCServerRequest(
                method: "POST", path: "/xrpc/com.example.test.putItem",
                headers: ["Content-Type": "application/json; charset=utf-8"],
                body: Data(#"{"text":"hi","count":3}"#.utf8)))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(try TestRouter.object(response)["stored"]?.stringValue, "hi/3")
    }

    func testInputBreakingItsLexiconIs400NamingTheField() async throws {
        let response = await router.respond(
            to: XRPCServerRequest(
                method: "POST", path: "/xrpc/com.example.test.putItem", headers: ["content-type": "application/json"],
                body: Data(#"{"text":"far too long a text"}"#.utf8)))
        let (status, name, message) = try TestRouter.error(response)
        XCTAssertEqual(status, 400)
        XCTAssertEqual(name, "InvalidRequest")
        XCTAssertEqual(message?.hasPrefix("input.text:"), true, message ?? "")
    }

    func testInputOfTheWrongShapeIs400NamingTheField() async throws {
        let response = await router.respond(
            to: XRPCServerRequest(
                method: "POST", path: "/xrpc/com.example.test.putItem", headers: ["content-type": "application/json"],
                body: Data(#"{"text":"ok","count":"three"}"#.utf8)))
        let (status, _, message) = try TestRouter.error(response)
        XCTAssertEqual(status, 400)
        XCTAssertEqual(message?.hasPrefix("input.count:"), true, message ?? "")
    }

    func testInputThatIsNotJSONOrHasAnotherContentTypeIs400() async throws {
        for (type, body) in [("application/json", "{nope"), ("text/plain", #"{"text":"a"}"#), ("", "")] {
            let headers: HTTPHeaderFields = type.isEmpty ? [:] : ["content-type": type]
            let response = await router.respond(
                to: XRPCServerRequest(
                    method: "POST", path: "/xrpc/com.example.test.putItem", headers: headers, body: Data(body.utf8)))
            let (status, name, _) = try TestRouter.error(response)
            XCTAssertEqual(status, 400, "\(type) \(body)")
            XCTAssertEqual(name, "InvalidRequest")
        }
    }

    func testAProcedureWithoutOutputAnswersAnEmpty200() async throws {
        let response = await router.respond(to: XRPCServerRequest(method: "POST", path: "/xrpc/com.example.test.ping"))
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.body.isEmpty)
    }

    func testABodyOverTheLimitIs413() async throws {
        let router = TestRouter.make(configuration: .init(maximumBodySize: 16))
        let response = await router.respond(
            to: XRPCServerRequest(
                method: "POST", path: "/xrpc/com.example.test.putItem", headers: ["content-type": "application/json"],
                body: Data(#"{"text":"abcdefghij"}"#.utf8)))
        let (status, name, _) = try TestRouter.error(response)
        XCTAssertEqual(status, 413)
        XCTAssertEqual(name, "PayloadTooLarge")
    }

    func testAQueryStringOverTheLimitIs400() async throws {
        let router = TestRouter.make(configuration: .init(maximumQueryLength: 32))
        let response = await router.respond(
            to: XRPCServerRequest(
                method: "GET",
                target: "/xrpc/com.example.test.getItems?feed=at://did:plc:aaaaaaaaaaaaaaaaaaaaaaaaaa/c/r"))
        XCTAssertEqual(response.status, 400)
    }

    func testTheErrorBodyIsExactlyErrorAndMessage() throws {
        let response = XRPCServerResponse(error: XRPCServerError(.forbidden, message: "not yours"))
        XCTAssertEqual(response.status, 403)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"error":"Forbidden","message":"not yours"}"#)
    }

    func testEachSpecNameHasItsStatus() {
        let expected: [(XRPCServerError.Code, Int)] = [
            (.invalidRequest, 400), (.authenticationRequired, 401), (.forbidden, 403), (.payloadTooLarge, 413),
            (.rateLimitExceeded, 429), (.internalServerError, 500), (.methodNotImplemented, 501),
            (.upstreamFailure, 502), (.notEnoughResources, 503), (.upstreamTimeout, 504), (.badJwtSignature, 401),
            ("SomeDeclaredError", 400),
        ]
        for (code, status) in expected {
            XCTAssertEqual(XRPCServerError(code, message: "m").status, status, code.rawValue)
        }
    }

    func testTheRequestDescriptionHidesCredentials() {
        let request = XRPCServerRequest(
            method: "GET", target: "/xrpc/a.b.c", headers: ["Authorization": "Bearer abc.def.ghi", "DPoP": "proof"])
        XCTAssertFalse(request.description.contains("abc.def.ghi"))
        XCTAssertFalse(request.description.contains("proof"))
        XCTAssertTrue(request.description.contains("authorization: <redacted>"))
    }
}

/// Lines a test's log closure received.
// @unchecked Sendable: `stored` is read and written only under `lock`.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) {
        lock.lock()
        stored.append(line)
        lock.unlock()
    }
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
