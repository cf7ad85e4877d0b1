// Identity resolution figures, each beside its anchor measured in the same run:
//
// - a cold resolution (handle -> DID over HTTPS well-known, DID -> document from a PLC directory,
//   the handle checked both ways) against the same loopback server, vs one raw URLSession GET;
// - a cached lookup through CachingIdentityResolver vs a bare actor holding a dictionary.
//
//     swift run -c release --package-path Benchmarks identity-bench [handles] [cached-lookups]

import AtprotoIdentityResolution
import Foundation
import HostFetching
import LoopbackHTTPServer
import XRPCRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let handleCount = arguments.first ?? 200
let cachedLookups = arguments.dropFirst().first ?? 200_000

/// did:plc:<24 base32 letters> for account `index`.
func did(_ index: Int) -> String {
    let letters = Array("abcdefghijklmnopqrstuvwxyz234567")
    var value = index
    var text = ""
    for _ in 0..<24 {
        text.append(letters[value % 32])
        value /= 32
    }
    return "did:plc:" + text
}

func document(_ index: Int) -> String {
    let id = did(index)
    return """
        {"id": "\(id)", "alsoKnownAs": ["at://user\(index).test"],
         "verificationMethod": [{"id": "\(id)#atproto", "type": "Multikey", "controller": "\(id)",
                                 "publicKeyMultibase": "zQ3shXjHeiBuRCKmM36cuYnm7YEMzhGnCmCyW92sRJ9pribSF"}],
         "service": [{"id": "#atproto_pds", "type": "AtprotoPersonalDataServer",
                      "serviceEndpoint": "https://pds.example.com"}]}
        """
}

let server: LoopbackHTTPServer
do {
    server = try LoopbackHTTPServer { request in
        if request.path == "/.well-known/atproto-did", let host = request.headers["host"],
            host.hasPrefix("user"), let index = Int(host.dropFirst(4).prefix { $0.isNumber })
        {
            return LoopbackHTTPServer.Response(body: Data(did(index).utf8))
        }
        if request.path.hasPrefix("/plc/did:plc:"),
            let index = (0..<handleCount).first(where: { "/plc/" + did($0) == request.path })
        {
            return LoopbackHTTPServer.Response(body: Data(document(index).utf8))
        }
        return LoopbackHTTPServer.Response(status: 404)
    }
} catch {
    print("identity-bench: could not start the loopback server: \(error)")
    exit(1)
}

let transport = URLSessionTransport(resourceTimeout: .seconds(30))
let local = LocalHostTransport(
    Dictionary(uniqueKeysWithValues: (0..<handleCount).map { ("user\($0).test", server.baseURL) }), network: transport)
let resolver = StandardIdentityResolver(
    handles: WellKnownHandleResolver(transport: local),
    dids: PLCDirectoryResolver(directory: server.baseURL.appendingPathComponent("plc"), transport: transport))

func seconds(_ start: ContinuousClock.Instant) -> Double {
    let elapsed = start.duration(to: .now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

// 1. Cold resolutions, one at a time, against raw GETs of the same document, interleaved.
let session = URLSession(configuration: .ephemeral)
var coldTotal = 0.0
var rawTotal = 0.0
for index in 0..<handleCount {
    var request = URLRequest(url: server.baseURL.appendingPathComponent("plc").appendingPathComponent(did(index)))
    request.httpMethod = "GET"
    let rawStart = ContinuousClock.now
    do {
        _ = try await session.data(for: request)
    } catch {
        print("identity-bench: raw GET failed: \(error)")
        exit(1)
    }
    rawTotal += seconds(rawStart)
    let start = ContinuousClock.now
    do {
        let identity = try await resolver.resolveIdentity(ATIdentifier(rawValue: "user\(index).test"))
        guard identity.verifiedHandle?.rawValue == "user\(index).test" else {
            print("identity-bench: user\(index).test did not verify")
            exit(1)
        }
    } catch {
        print("identity-bench: resolving user\(index).test failed: \(error)")
        exit(1)
    }
    coldTotal += seconds(start)
}
let coldMean = coldTotal / Double(handleCount) * 1e3
let rawMean = rawTotal / Double(handleCount) * 1e3
print("cold resolution (handle -> DID -> document, checked both ways, loopback, \(handleCount) handles):")
print(
    String(
        format: "  %.3f ms per identity; anchor: one raw URLSession GET %.3f ms; ratio %.2fx", coldMean, rawMean,
        coldMean / rawMean))

// 2. Cached lookups: every handle warm, then many lookups spread over them.
actor DictionaryAnchor {
    var values: [String: DID] = [:]
    func set(_ key: String, _ value: DID) { values[key] = value }
    func get(_ key: String) -> DID? { values[key] }
}
let cache = CachingIdentityResolver(wrapping: resolver)
let anchor = DictionaryAnchor()
let handles = (0..<handleCount).map { ATHandle(rawValue: "user\($0).test") }
for handle in handles {
    do {
        let value = try await cache.resolveHandle(handle)
        await anchor.set(handle.rawValue, value)
    } catch {
        print("identity-bench: warming \(handle.rawValue) failed: \(error)")
        exit(1)
    }
}
// Off the main actor, as an app's work would be.
let (cachedBest, anchorBest) = await Task.detached {
    var cachedBest = Double.infinity
    var anchorBest = Double.infinity
    for _ in 0..<5 {
        let start = ContinuousClock.now
        for index in 0..<cachedLookups {
            _ = try? await cache.resolveHandle(handles[index % handleCount])
        }
        cachedBest = min(cachedBest, seconds(start))
        let anchorStart = ContinuousClock.now
        for index in 0..<cachedLookups {
            _ = await anchor.get(handles[index % handleCount].rawValue)
        }
        anchorBest = min(anchorBest, seconds(anchorStart))
    }
    return (cachedBest, anchorBest)
}.value
let cachedRate = Double(cachedLookups) / cachedBest
let anchorRate = Double(cachedLookups) / anchorBest
print("cached lookups (one task, \(cachedLookups) lookups over \(handleCount) warm handles, best of 5):")
print(
    String(
        format: "  %.0f lookups/s (%.2f µs each); anchor: an actor dictionary %.0f/s; ratio %.2fx the anchor's time",
        cachedRate, 1e6 / cachedRate, anchorRate, anchorRate / cachedRate))
server.stop()
