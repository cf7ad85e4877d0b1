import AtprotoTap
import Foundation
import SecretLeakTesting
import XCTest

/// Repos added and removed with the admin password; refused without it; hostile frames end the
/// stream with an error that names the frame, the connection and the field.
final class TapServiceTests: XCTestCase {
    private let bob: DID = "did:plc:bobbobbobbobbobbobbobbob"

    func testAddAndRemoveReposReachTapWithTheAdminPassword() async throws {
        let tap = try TapStandIn(adminPassword: "hunter2")
        let client = try TapClient.of(tap, adminPassword: "hunter2")
        try await client.addRepos([DID(rawValue: TapFrames.alice), bob])
        XCTAssertEqual(tap.repos, [TapFrames.alice, bob.rawValue])
        try await client.removeRepos([DID(rawValue: TapFrames.alice)])
        XCTAssertEqual(tap.repos, [bob.rawValue])
    }

    func testAWrongPasswordIsRefusedForReposAndTheChannel() async throws {
        let tap = try TapStandIn(adminPassword: "hunter2")
        let client = try TapClient.of(tap, adminPassword: "letmein")
        do {
            try await client.addRepos([bob])
            XCTFail("a wrong password was taken")
        } catch {
            XCTAssertEqual(error.code, .unauthorized)
            XCTAssertEqual(error.status, 401)
            XCTAssertFalse("\(error)".contains("letmein"), "\(error)")
        }
        XCTAssertEqual(tap.repos, [])

        var iterator = client.events().makeAsyncIterator()
        let (events, error) = await read(1, from: &iterator)
        XCTAssertEqual(events.count, 0)
        XCTAssertEqual(error?.code, .unauthorized, "\(String(describing: error))")
        XCTAssertEqual(tap.channelConnections, 0)
    }

    func testAFrameThatIsNotJSONNamesItsPlace() async throws {
        let tap = try TapStandIn()
        tap.publish(id: 1, frame: TapFrames.identity(id: 1))
        tap.publish(id: 2, frame: #"{"id":2,"type":"record","record":{"did":"#)
        var iterator = try TapClient.of(tap).events().makeAsyncIterator()
        let (events, error) = await read(3, from: &iterator)
        XCTAssertEqual(events.map(\.id), [1])
        XCTAssertEqual(error?.code, .malformedEvent)
        let text = "\(String(describing: error))"
        XCTAssertTrue(text.contains("frame 2 of connection 1 to ws://127.0.0.1:\(tap.port)/channel"), text)
        XCTAssertTrue(text.contains("not JSON"), text)
    }

    func testAFieldOfTheWrongSyntaxIsNamedWithItsEvent() async throws {
        let tap = try TapStandIn()
        tap.publish(id: 5, frame: TapFrames.record(id: 5, collection: "not an nsid"))
        var iterator = try TapClient.of(tap).events().makeAsyncIterator()
        let (events, error) = await read(1, from: &iterator)
        XCTAssertEqual(events.count, 0)
        XCTAssertEqual(error?.code, .malformedEvent)
        XCTAssertEqual(error?.eventID, 5)
        XCTAssertEqual(error?.field, "record.collection")
        XCTAssertTrue("\(String(describing: error))".contains("frame 1 of connection 1"))
    }

    func testAFrameOverTheTransportsBoundEndsTheStream() async throws {
        let tap = try TapStandIn()
        let huge = TapFrames.record(
            id: 9, record: #"{"$type":"com.example.blob","data":"\#(String(repeating: "x", count: 8192))"}"#)
        tap.publish(id: 9, frame: huge)
        let transport = POSIXWebSocketTransport(maximumFrameSize: 4096, maximumMessageSize: 4096)
        var iterator = try TapClient.of(tap, transport: transport).events().makeAsyncIterator()
        let (events, error) = await read(1, from: &iterator)
        XCTAssertEqual(events.count, 0)
        XCTAssertEqual(error?.code, .frameTooLarge, "\(String(describing: error))")
        XCTAssertTrue("\(String(describing: error))".contains("frame 1 of ws://127.0.0.1:\(tap.port)/channel"))
        XCTAssertEqual(tap.channelConnections, 1, "a frame too large is not a reason to connect again")
    }

    func testTheAdminPasswordShowsNowhere() async throws {
        let tap = try TapStandIn(adminPassword: "hunter2")
        let client = try TapClient.of(tap, adminPassword: "hunter2")
        tap.publish(id: 1, frame: TapFrames.identity(id: 1))
        var iterator = client.events().makeAsyncIterator()
        _ = await read(1, from: &iterator)
        let secrets = ["hunter2", Data("admin:hunter2".utf8).base64EncodedString()]
        let leaks = secretLeaks(in: printedForms(client) + printedForms(iterator), of: secrets)
        XCTAssertEqual(leaks, [])
        XCTAssertTrue(client.description.contains("admin password set"), client.description)
    }

    func testAChannelRefusedWithAnotherStatusIsNotTriedAgain() async throws {
        let tap = try TapStandIn(channelRefusal: "websocket not available in webhook mode")
        var iterator = try TapClient.of(tap).events().makeAsyncIterator()
        let (events, error) = await read(1, from: &iterator)
        XCTAssertEqual(events.count, 0)
        XCTAssertEqual(error?.code, .rejected, "\(String(describing: error))")
        XCTAssertEqual(error?.status, 400)
        XCTAssertTrue(error?.message.contains("webhook mode") == true, "\(String(describing: error))")
        XCTAssertEqual(tap.refusals, 1, "a refusal is not a reason to connect again")
    }

    func testAServiceThatIsNotHTTPOrWebSocketIsRefused() {
        XCTAssertThrowsError(try TapClient(service: URL(fileURLWithPath: "/tmp/tap"))) { error in
            XCTAssertEqual((error as? TapError)?.code, .invalidService)
        }
    }
}
