import Foundation
import LoopbackHTTPServer

@testable import XRPCCore
@testable import XRPCWebSockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// @unchecked Sendable: `peers`, `targets` and `stopped` are read and written under `lock`; the rest are `let`s.
/// A WebSocket server on `127.0.0.1` for tests, written against RFC 6455 by hand: each connection
/// runs a script on its own thread, which answers the upgrade and sends and reads raw frames, so
/// that tests can send what a real server would never send.
final class TestWebSocketServer: @unchecked Sendable {
    /// What a connection does once its upgrade request is read.
    typealias Script = @Sendable (TestWebSocketPeer) throws -> Void

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    private let listener: Int32
    private let script: Script
    private let lock = NSLock()
    private var peers: [TestWebSocketPeer] = []
    private var targets: [String] = []
    private var stopped = false

    /// The server's URL, `ws://127.0.0.1:<port>`.
    var url: URL { URL(string: "ws://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    /// The request targets (path and query) of the upgrade requests so far, in order.
    var requestTargets: [String] { lock.withLock { targets } }

    init(script: @escaping Script) throws {
        self.script = script
        let listener = try LoopbackListener(backlog: 16)
        port = listener.port
        self.listener = listener.descriptor
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Stops listening and drops every connection.
    func stop() {
        let open: [TestWebSocketPeer]? = lock.withLock {
            if stopped { return nil }
            stopped = true
            return peers
        }
        guard let open else { return }
        LoopbackListener.wake(listener, port: port)
        for peer in open { peer.dropConnection() }
    }

    /// Accepts until stopped, then closes the listener (only here: see `LoopbackListener.wake`).
    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let peer = TestWebSocketPeer(descriptor: descriptor)
            let accepted = lock.withLock {
                if stopped { return false }
                peers.append(peer)
                return true
            }
            guard accepted else {
                peer.dropConnection()
                return
            }
            Thread { [self] in
                guard let target = peer.readRequest() else { return peer.dropConnection() }
                lock.withLock { targets.append(target) }
                do { try script(peer) } catch { peer.scriptError = "\(error)" }
                peer.dropConnection()
            }.start()
        }
    }
}

// @unchecked Sendable: `dropped` is under `lock`; the other `var`s belong to the connection's script thread.
/// One connection of a ``TestWebSocketServer``, as its script sees it.
final class TestWebSocketPeer: @unchecked Sendable {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    private var dropped = false
    /// The upgrade request's header fields, lower-cased names.
    private(set) var headers: [String: String] = [:]
    /// The upgrade request's header lines as sent, in order.
    private(set) var headerLines: [String] = []
    private(set) var key = ""
    var scriptError: String?

    init(descriptor: Int32) {
        self.descriptor = descriptor
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads the upgrade request; returns its target.
    func readRequest() -> String? {
        while true {
            if let end = firstIndex(of: [13, 10, 13, 10]) {
                let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
                buffer.removeFirst(end + 4)
                headerLines = Array(lines.dropFirst())
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                key = headers["sec-websocket-key"] ?? ""
                let parts = lines.first?.split(separator: " ") ?? []
                return parts.count > 1 ? String(parts[1]) : nil
            }
            guard fill() else { return nil }
        }
    }

    /// Answers the upgrade with 101 and the right (or the given) `Sec-WebSocket-Accept`.
    func acceptUpgrade(acceptValue: String? = nil) {
        let accept = acceptValue ?? WebSocketHandshake.acceptValue(forKey: key)
        sendRaw(
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(accept)\r\n\r\n")
    }

    /// Answers the upgrade with an HTTP error and a JSON body.
    func refuseUpgrade(status: Int, json: String) {
        sendRaw(
            "HTTP/1.1 \(status) Bad Request\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
    }

    func sendRaw(_ text: String) { sendRaw(Array(text.utf8)) }

    func sendRaw(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Sends one unmasked frame.
    func sendFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) {
        guard let code = WebSocketFrame.Opcode(rawValue: opcode) else { return }
        sendRaw(WebSocketFrame(fin: fin, opcode: code, payload: payload).encoded(maskKey: nil))
    }

    /// Sends a binary message.
    func sendBinary(_ bytes: [UInt8]) { sendFrame(0x2, bytes) }

    /// Sends a close frame with `code`.
    func sendClose(_ code: UInt16, reason: String = "") {
        sendFrame(0x8, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    /// Reads one frame from the client, which must be masked; returns it unmasked.
    func readFrame() throws -> (fin: Bool, opcode: UInt8, payload: [UInt8]) {
        try need(2)
        let fin = buffer[0] & 0x80 != 0
        let opcode = buffer[0] & 0x0F
        guard buffer[1] & 0x80 != 0 else { throw TestWebSocketServer.Failure(description: "client frame not masked") }
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            try need(4)
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            try need(10)
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        try need(offset + 4 + length)
        let mask = Array(buffer[offset..<offset + 4])
        let payload = buffer[(offset + 4)..<(offset + 4 + length)].enumerated().map { $1 ^ mask[$0 & 3] }
        buffer.removeFirst(offset + 4 + length)
        return (fin, opcode, payload)
    }

    /// Reads frames until the client's close frame; returns its code (nil when it had none).
    func readClose() throws -> UInt16? {
        while true {
            let frame = try readFrame()
            guard frame.opcode == 0x8 else { continue }
            return frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : nil
        }
    }

    /// Waits until the client closes the TCP connection (or 20 s pass).
    func waitForEndOfStream() {
        while fill() {}
    }

    func dropConnection() {
        lock.withLock {
            guard !dropped else { return }
            dropped = true
            shutdown(descriptor, Int32(SHUT_RDWR))
            close(descriptor)
        }
    }

    private func need(_ count: Int) throws {
        while buffer.count < count {
            guard fill() else { throw TestWebSocketServer.Failure(description: "connection ended") }
        }
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }

    private func firstIndex(of pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        return (0...(buffer.count - pattern.count)).first { Array(buffer[$0..<$0 + pattern.count]) == pattern }
    }
}

// @unchecked Sendable: `stored` is read and written under `lock`.
/// A value a server script hands to its test, across threads.
final class ScriptOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    /// Stores the value.
    func set(_ value: Value) { lock.withLock { stored = value } }

    /// The value once it is set, or `nil` after `seconds`.
    func value(within seconds: Double = 20) async -> Value? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = lock.withLock({ stored }) { return value }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return nil
    }
}
