import BenchmarkSupport
import Foundation
import LoopbackHTTPServer
import XRPCRuntime
import XRPCTesting
@_spi(Plumbing) import XRPCWebSockets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-connection WebSocket server on `127.0.0.1` that answers the upgrade, writes every frame
/// as a binary message, then a close frame: the firehose as the POSIX client reads it.
final class LoopbackFrameServer: Sendable {
    let port: Int
    private let listener: Int32

    init(frames: [Data]) throws {
        let listener = try LoopbackListener(backlog: 1)
        port = listener.port
        self.listener = listener.descriptor
        var stream: [UInt8] = []
        for frame in frames { stream += Self.header(count: frame.count) + frame }
        stream += [0x88, 0x02, 0x03, 0xE8]  // close, 1000
        let payload = stream
        Thread { [self] in serve(payload) }.start()
    }

    /// The header of an unmasked, final binary frame of `count` bytes.
    private static func header(count: Int) -> [UInt8] {
        if count < 126 { return [0x82, UInt8(count)] }
        if count <= 0xFFFF { return [0x82, 126, UInt8(count >> 8), UInt8(count & 0xFF)] }
        return [0x82, 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: count >> ($0 * 8)) }
    }

    private func serve(_ payload: [UInt8]) {
        let connection = accept(listener, nil, nil)
        close(listener)
        guard connection >= 0 else { return }
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !request.suffix(4).elementsEqual([13, 10, 13, 10]) {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            request += chunk[0..<count]
        }
        let key =
            String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n")
            .first { $0.lowercased().hasPrefix("sec-websocket-key:") }?
            .dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) ?? ""
        let response =
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(webSocketAcceptValue(forKey: key))\r\n\r\n"
        for bytes in [Array(response.utf8), payload] {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
                guard written > 0 else { return }
                offset += written
            }
        }
        while chunk.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0 {}
        close(connection)
    }
}

/// Streams the frames from a loopback server through the default transport (on Linux this
/// package's POSIX WebSocket client) and `XRPCEventStream`, and prints frames/s by the wall clock
/// and by process CPU time (client and server threads together).
func benchmarkLoopbackStream(_ frames: [Data], runs: Int) async throws {
    var wall: [Double] = []
    var cpu: [Double] = []
    var count = 0
    for _ in 0...runs {
        let server = try LoopbackFrameServer(frames: frames)
        var client = XRPCClient(agent: StubAgent { _ in XRPCResponse(status: 501) })
        client.eventStreams.serviceURL = URL(string: "ws://127.0.0.1:\(server.port)")
        let start = (Date(), processCPUTime())
        count = 0
        for try await message in client.subscribe(BenchSubscription.self, parameters: .init()) {
            guard message.type == "com.atproto.sync.subscribeRepos#commit" else {
                throw BenchmarkError(description: "not a commit: \(message.type ?? "no $type")")
            }
            count += 1
        }
        wall.append(Date().timeIntervalSince(start.0))
        cpu.append(processCPUTime() - start.1)
    }
    guard count == frames.count else { throw BenchmarkError(description: "\(count) of \(frames.count) frames arrived") }
    let medianWall = Array(wall.dropFirst()).sorted()[runs / 2]
    let medianCPU = Array(cpu.dropFirst()).sorted()[runs / 2]
    print("loopback ws:// + POSIX client + XRPCEventStream (frames to messages)")
    print(
        "  median \(format(Double(frames.count) / medianWall)) frames/s wall clock, "
            + "\(format(Double(frames.count) / medianCPU)) frames/s of process CPU; \(runs) runs")
}
