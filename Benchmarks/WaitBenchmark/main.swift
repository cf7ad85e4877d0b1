// The CPU a request costs while it waits for a slow answer: URLSessionTransport (FoundationNetworking
// over libcurl on Linux) beside NIOHTTPTransport (trait NIOHTTPTransport), against a loopback server
// that answers each request after `delay` milliseconds (the server's thread sleeps: it costs nothing).
// Per round and transport, on a transport made for the round: a GET (a new connection), a second GET
// (URLSession's kept-alive connection; NIO's own new one), a POST (a new connection on both: on Linux
// URLSessionTransport sends every POST through a session of its own). Each line is the median over the
// rounds of the process's CPU time for that request, with the quartiles; the transports alternate.
//
//     swift run -c release --package-path Benchmarks --traits NIOHTTPTransport wait-bench [delay ms] [rounds]   (200, 9)
//
// Without the trait only URLSessionTransport is measured.

import BenchmarkSupport
import Foundation
import LoopbackHTTPServer
import XRPCRuntime

#if NIOHTTPTransport
    import NIOHTTPTransport
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let delay = arguments.first ?? 200
let rounds = arguments.dropFirst().first ?? 9

do {
    let server = try LoopbackHTTPServer { request in
        .init(status: 200, body: Data("answered \(request.method)".utf8), delay: Double(delay) / 1000)
    }
    defer { server.stop() }
    let url = server.baseURL.appendingPathComponent("xrpc/com.example.wait")

    #if NIOHTTPTransport
        let transports: [(String, @Sendable () -> any HTTPTransport)] = [
            ("URLSessionTransport", { URLSessionTransport() }), ("NIOHTTPTransport", { NIOHTTPTransport() }),
        ]
    #else
        let transports: [(String, @Sendable () -> any HTTPTransport)] = [
            ("URLSessionTransport", { URLSessionTransport() })
        ]
    #endif
    let kinds = ["GET, new connection", "GET again", "POST"]
    var cpu: [String: [Double]] = [:]
    for _ in 0..<rounds {
        for (name, make) in transports {
            let transport = make()
            for kind in kinds {
                let request = HTTPTransportRequest(
                    method: kind == "POST" ? "POST" : "GET", url: url,
                    headers: kind == "POST" ? ["Content-Type": "application/json"] : [:],
                    body: kind == "POST" ? Data("{}".utf8) : nil, timeout: .seconds(30))
                let before = processCPUTime()
                let answer = try await transport.send(request)
                cpu["\(name) \(kind)", default: []].append(processCPUTime() - before)
                guard answer.status == 200 else {
                    print("wait-bench: \(name) \(kind): HTTP \(answer.status)")
                    exit(1)
                }
            }
        }
    }
    print("each request waits \(delay) ms for its answer; CPU per request, median of \(rounds) rounds (quartiles)")
    for (name, _) in transports {
        for kind in kinds {
            let figures = Figures(perOperation: cpu["\(name) \(kind)"] ?? [0])
            let label = "\(name) \(kind)".padding(toLength: 44, withPad: " ", startingAt: 0)
            print(
                label
                    + String(
                        format: "%7.1f ms  (%.1f-%.1f)", figures.median * 1000, figures.quantile(0.25) * 1000,
                        figures.quantile(0.75) * 1000))
        }
    }
    #if !NIOHTTPTransport
        print("(NIOHTTPTransport not measured: build with --traits NIOHTTPTransport)")
    #endif
} catch {
    print("wait-bench: \(error)")
    exit(1)
}
