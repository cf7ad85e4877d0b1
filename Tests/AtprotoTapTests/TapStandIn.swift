import Foundation
import LoopbackHTTPServer
import XRPCWebSockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// @unchecked Sendable: every `var` is read and written under `lock`; the rest are `let`s.
/// A stand-in for Tap on `127.0.0.1`, following its documented HTTP API: `/channel` upgrades to a
/// WebSocket that sends each event as a JSON text frame and takes `{"type":"ack","id":N}` messages;
/// an event is sent again on every new connection until it is acknowledged (Tap resends after its
/// retry timeout; here a reconnection stands for it); `POST /repos/add` and `/repos/remove` take
/// `{"dids":[...]}`; with an admin password every request needs Basic auth as `admin`, else 401.
final class TapStandIn: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let password: String?
    /// Tap in webhook mode refuses `/channel` with 400 and this message.
    private let channelRefusal: String?
    private let lock = NSLock()
    private var outbox: [(id: Int, frame: String)] = []
    private var acked: [Int] = []
    private var tracked: [String] = []
    private var channels: [StandInPeer] = []
    private var connections: [StandInPeer] = []
    private var upgrades = 0
    private var refused = 0
    private var stopped = false

    var url: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }
    /// The acks received, in order.
    var acks: [Int] { lock.withLock { acked } }
    /// The repos tracked, in the order added.
    var repos: [String] { lock.withLock { tracked } }
    /// How many `/channel` connections were accepted.
    var channelConnections: Int { lock.withLock { upgrades } }
    /// How many `/channel` upgrades were refused for the `channelRefusal`.
    var refusals: Int { lock.withLock { refused } }

    init(adminPassword: String? = nil, channelRefusal: String? = nil) throws {
        password = adminPassword
        self.channelRefusal = channelRefusal
        let listener = try LoopbackListener(backlog: 16)
        port = listener.port
        self.listener = listener.descriptor
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Queues a raw frame as event `id` and sends it to the open channels.
    func publish(id: Int, frame: String) {
        lock.withLock {
            outbox.append((id, frame))
            for peer in channels { peer.sendText(frame) }
        }
    }

    /// Drops every open connection without a closing handshake (a crash, a network cut).
    func dropConnections() {
        let open = lock.withLock {
            defer { channels.removeAll() }
            return connections
        }
        for peer in open { peer.drop() }
    }

    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        LoopbackListener.wake(listener, port: port)
        dropConnections()
    }

    /// Waits (polling, up to `seconds`) until `condition` holds; returns whether it did.
    func wait(within seconds: Double = 20, until condition: @Sendable (TapStandIn) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(self) { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return condition(self)
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let peer = StandInPeer(descriptor: descriptor)
            let accepted = lock.withLock {
                if !stopped { connections.append(peer) }
                return !stopped
            }
            guard accepted else { return peer.drop() }
            Thread { [self] in
                serve(peer)
                peer.drop()
            }.start()
        }
    }

    private func serve(_ peer: StandInPeer) {
        guard let request = peer.readRequest() else { return }
        if let password {
            let expected = "Basic " + Data("admin:\(password)".utf8).base64EncodedString()
            guard request.headers["authorization"] == expected else {
                return peer.answer(
                    401, #"{"error":"Unauthorized","message":"admin auth required, but missing or incorrect"}"#)
            }
        }
        switch (request.method, request.path) {
        case ("GET", "/channel") where channelRefusal != nil:
            lock.withLock { refused += 1 }
            peer.answer(400, #"{"message":"\#(channelRefusal ?? "")"}"#)
        case ("GET", "/channel") where request.headers["upgrade"]?.lowercased() == "websocket":
            channel(peer, key: request.headers["sec-websocket-key"] ?? "")
        case ("POST", "/repos/add"), ("POST", "/repos/remove"):
            guard let dids = Self.dids(request.body) else {
                return peer.answer(400, #"{"error":"BadRequest","message":"no dids"}"#)
            }
            lock.withLock {
                if request.path == "/repos/add" {
                    tracked += dids.filter { !tracked.contains($0) }
                } else {
                    tracked.removeAll { dids.contains($0) }
                }
            }
            peer.answer(200, "")
        default:
            peer.answer(404, #"{"message":"Not Found"}"#)
        }
    }

    /// Upgrades, sends every unacknowledged event, then reads acks until the client leaves.
    private func channel(_ peer: StandInPeer, key: String) {
        peer.sendRaw(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\r\n")
        lock.withLock {
            upgrades += 1
            channels.append(peer)
            for event in outbox where !acked.contains(event.id) { peer.sendText(event.frame) }
        }
        while let (opcode, payload) = peer.readFrame() {
            if opcode == 0x8 { return peer.sendFrame(0x8, Array(payload.prefix(2))) }
            guard opcode == 0x1,
                let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
                object["type"] as? String == "ack", let id = object["id"] as? Int
            else { continue }
            lock.withLock { acked.append(id) }
        }
        lock.withLock { channels.removeAll { $0 === peer } }
    }

    private static func dids(_ body: Data) -> [String]? {
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
        return object?["dids"] as? [String]
    }
}

// @unchecked Sendable: `buffer` belongs to the connection's own thread; writes and `dropped` are under `lock`.
/// One connection to the stand-in: an HTTP request, then WebSocket frames.
final class StandInPeer: @unchecked Sendable {
    struct Request {
        var method: String
        var path: String
        var headers: [String: String]
        var body: Data
    }

    private let descriptor: Int32
    private let lock = NSLock()
    private var buffer: [UInt8] = []
    private var dropped = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    func readRequest() -> Request? {
        while true {
            let marker: [UInt8] = [13, 10, 13, 10]
            if buffer.count >= 4,
                let end = (0...(buffer.count - 4)).first(where: { buffer[$0..<$0 + 4].elementsEqual(marker) })
            {
                let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                guard need(end + 4 + length) else { return nil }
                let body = Data(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                let parts = (lines.first ?? "").split(separator: " ").map(String.init)
                guard parts.count > 1 else { return nil }
                return Request(method: parts[0], path: parts[1], headers: headers, body: body)
            }
            guard fill() else { return nil }
        }
    }

    func answer(_ status: Int, _ json: String) {
        sendRaw(
            "HTTP/1.1 \(status) Status\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(json)")
    }

    func sendText(_ text: String) { sendFrame(0x1, Array(text.utf8)) }

    /// Sends one unmasked frame.
    func sendFrame(_ opcode: UInt8, _ payload: [UInt8]) {
        var bytes: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            bytes.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(127)
            bytes += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        sendRaw(bytes + payload)
    }

    func sendRaw(_ text: String) { sendRaw(Array(text.utf8)) }

    func sendRaw(_ bytes: [UInt8]) {
        lock.withLock {
            guard !dropped else { return }
            _ = LoopbackListener.sendAll(descriptor, bytes)
        }
    }

    /// Reads one masked client frame; `nil` when the connection ended or broke the protocol.
    func readFrame() -> (opcode: UInt8, payload: [UInt8])? {
        guard need(2), buffer[1] & 0x80 != 0 else { return nil }
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard need(4) else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard need(10) else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard need(offset + 4 + length) else { return nil }
        let mask = Array(buffer[offset..<offset + 4])
        let payload = buffer[(offset + 4)..<(offset + 4 + length)].enumerated().map { $1 ^ mask[$0 & 3] }
        buffer.removeFirst(offset + 4 + length)
        return (opcode, payload)
    }

    func drop() {
        lock.withLock {
            guard !dropped else { return }
            dropped = true
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }
    }

    private func need(_ count: Int) -> Bool {
        while buffer.count < count {
            guard fill() else { return false }
        }
        return true
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }
}
