import Foundation
import FuzzDriver
import XRPCRuntime

@testable import XRPCWebSockets

/// What arrives over a WebSocket: frames, messages, the handshake answer, event-stream frames.
let streamTargets: [FuzzTarget] = [
    FuzzTarget("websocket", "WebSocket handshake answer, frame parser and message assembler, in chunks") { bytes in
        var input = FuzzInput(bytes)
        // The first byte picks the chunk size, so frames split across reads are covered too.
        let chunk = Int(input.byte() % 32) + 1
        let rest = input.rest()
        _ = try? WebSocketHandshake.parseResponse(rest)
        var parser = WebSocketFrameParser(maximumFrameSize: 1 << 16)
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 1 << 17)
        var offset = 0
        reading: while offset < rest.count {
            parser.append(rest[offset..<min(rest.count, offset + chunk)])
            offset += chunk
            while true {
                do {
                    guard let frame = try parser.next() else { break }
                    if frame.opcode.isControl {
                        _ = frame.encoded(maskKey: [1, 2, 3, 4])
                        continue
                    }
                    _ = try assembler.add(frame)
                } catch {
                    break reading
                }
            }
        }
    },
    FuzzTarget("event-frame", "XRPCEventFrame(decoding:), its message JSON and sequence") { bytes in
        guard let frame = try? XRPCEventFrame(decoding: bytes) else { return }
        _ = frame.messageJSON(nsid: "com.atproto.sync.subscribeRepos")
        _ = frame.sequence
    },
]
