import AtprotoTap
import Foundation

/// Tap's event frames as its README documents them.
enum TapFrames {
    static let alice = "did:plc:ewvi7nxzyoun6zhxrhs64oiz"
    static let cid = "bafyreidfayvfuwqa7qlnopdjiqrxzs6blmoeu4rujcjtnci5beludirz2a"

    static func record(
        id: Int, collection: String = "app.bsky.feed.post", rkey: String = "3kb3fge5lm32x", action: String = "create",
        record: String? =
            #"{"$type":"app.bsky.feed.post","text":"Hello world!","createdAt":"2024-10-07T12:00:00.000Z"}"#,
        live: Bool = true
    ) -> String {
        let body = record.map { #","cid":"\#(cid)","record":\#($0)"# } ?? ""
        return #"{"id":\#(id),"type":"record","record":{"live":\#(live),"rev":"3kb3fge5lm32x","did":"\#(alice)","#
            + #""collection":"\#(collection)","rkey":"\#(rkey)","action":"\#(action)"\#(body)}}"#
    }

    static func identity(id: Int, handle: String = "alice.bsky.social", status: String = "active") -> String {
        #"{"id":\#(id),"type":"identity","identity":{"did":"\#(alice)","handle":"\#(handle)","#
            + #""is_active":\#(status == "active"),"status":"\#(status)"}}"#
    }
}

extension TapClient {
    /// A client of `standIn` over this package's ws:// client, reconnecting quickly.
    static func of(
        _ standIn: TapStandIn, adminPassword: String? = nil, transport: POSIXWebSocketTransport = .init(),
        attempts: Int = 3
    ) throws -> TapClient {
        try TapClient(
            service: standIn.url, adminPassword: adminPassword, webSocketTransport: transport,
            reconnectPolicy: XRPCReconnectPolicy(maximumAttempts: attempts, initialDelay: .milliseconds(10)))
    }
}

/// Reads `count` events of `iterator`, or the error that ended it.
func read(
    _ count: Int, from iterator: inout TapEventStream.Iterator
) async -> (events: [TapEvent], error: TapError?) {
    var events: [TapEvent] = []
    do {
        while events.count < count, let event = try await iterator.next() { events.append(event) }
    } catch {
        return (events, error)
    }
    return (events, nil)
}
