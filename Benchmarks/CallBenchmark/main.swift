// Per-call overhead of XRPCClient + URLSessionAgent over a raw URLSession request, both against
// the same in-process loopback HTTP server, interleaved call by call.
//
//     swift run -c release --package-path Benchmarks xrpc-call-bench [calls]

import Foundation
import LoopbackHTTPServer
@_spi(Generated) import XRPCCore
import XRPCRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small generated-style output: two formatted fields, one optional, unknown fields kept.
struct Profile: LexiconObject {
    var did: DID
    var handle: ATHandle
    var displayName: String?
    var unknownFields: [String: JSONValue] = [:]

    init(reading reader: inout LexiconObjectReader) throws {
        did = try reader.required("did")
        handle = try reader.required("handle")
        displayName = try reader.optional("displayName")
        unknownFields = reader.remainingFields
    }

    func write(to writer: inout LexiconObjectWriter) {
        writer.write("did", did)
        writer.write("handle", handle)
        writer.write("displayName", displayName)
        writer.writeUnknown(unknownFields)
    }
}

struct ProfileParameters: XRPCParameters {
    var actor: String
    var unknownFields: [String: JSONValue] = [:]

    init(actor: String) { self.actor = actor }

    init(reading reader: inout LexiconObjectReader) throws {
        actor = try reader.required("actor")
        unknownFields = reader.remainingFields
    }

    func write(to writer: inout LexiconObjectWriter) {
        writer.write("actor", actor)
        writer.writeUnknown(unknownFields)
    }
}

enum GetProfile: XRPCQuery {
    typealias Parameters = ProfileParameters
    typealias Error = XRPCUndeclaredError
    typealias Output = Profile
    static var nsid: NSID { "app.bsky.actor.getProfile" }
}

struct Statistics {
    var mean: Double
    var median: Double
    var p90: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        mean = samples.reduce(0, +) / Double(max(samples.count, 1))
        median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        p90 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
    }
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func format(_ value: Double) -> String { String(format: "%8.1f", value) }

let calls = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2000
let body = Data(
    #"{"did":"did:plc:z72i7hdynmk6r22z27h6tvur","handle":"alice.test","displayName":"Alice","followersCount":12}"#.utf8)
let server = try LoopbackHTTPServer { _ in
    LoopbackHTTPServer.Response(status: 200, headers: ["Content-Type": "application/json"], body: body)
}
let parameters = ProfileParameters(actor: "alice.test")
let client = XRPCClient(agent: URLSessionAgent(serviceURL: server.baseURL))
let rawSession = URLSession(configuration: .ephemeral)
guard let rawURL = URL(string: "\(server.baseURL.absoluteString)/xrpc/app.bsky.actor.getProfile?actor=alice.test")
else {
    throw URLError(.badURL)
}
let rawRequest = URLRequest(url: rawURL)

func rawCall() async throws {
    let (data, response) = try await rawSession.data(for: rawRequest)
    guard (response as? HTTPURLResponse)?.statusCode == 200, data.count == body.count else {
        throw CocoaError(.fileReadCorruptFile)
    }
}

func runtimeCall() async throws {
    let profile = try await client.query(GetProfile.self, parameters: parameters)
    guard profile.handle.rawValue == "alice.test" else { throw CocoaError(.fileReadCorruptFile) }
}

let clock = ContinuousClock()
for _ in 0..<200 {
    try await rawCall()
    try await runtimeCall()
}
var raw: [Double] = []
var runtime: [Double] = []
raw.reserveCapacity(calls)
runtime.reserveCapacity(calls)
for index in 0..<calls {
    // Alternate which goes first so neither always follows the other.
    if index.isMultiple(of: 2) {
        raw.append(microseconds(try await clock.measure { try await rawCall() }))
        runtime.append(microseconds(try await clock.measure { try await runtimeCall() }))
    } else {
        runtime.append(microseconds(try await clock.measure { try await runtimeCall() }))
        raw.append(microseconds(try await clock.measure { try await rawCall() }))
    }
}
server.stop()

let rawStats = Statistics(raw)
let runtimeStats = Statistics(runtime)
print("xrpc-call-bench: \(calls) calls each way, interleaved, loopback server, \(body.count)-byte JSON output")
print("                                  mean    median       p90   (microseconds per call)")
print("raw URLSession data(for:)     \(format(rawStats.mean))  \(format(rawStats.median))  \(format(rawStats.p90))")
print(
    "XRPCClient + URLSessionAgent  \(format(runtimeStats.mean))  \(format(runtimeStats.median))  \(format(runtimeStats.p90))"
)
print(
    String(
        format: "ratio runtime/raw: mean %.3f, median %.3f (added per call: mean %.1f us, median %.1f us)",
        runtimeStats.mean / rawStats.mean, runtimeStats.median / rawStats.median,
        runtimeStats.mean - rawStats.mean, runtimeStats.median - rawStats.median))
