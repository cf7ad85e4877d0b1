import AtprotoIdentityResolution
import FeedGenerator
import Foundation
import Jetstream
import XRPCHummingbird
import XRPCRuntime
import XRPCServer

// Configuration from the environment:
//   FEEDGEN_PDS_URL        the PDS (or relay) whose firehose is followed, e.g. http://127.0.0.1:2583
//   FEEDGEN_PUBLISHER_DID  the account that publishes the feed record
//   FEEDGEN_PORT           the port to listen on (default 3000)
//   FEEDGEN_HOSTNAME       the public host name (default localhost:<port>, giving did:web:localhost%3A<port>)
//   FEEDGEN_WORD           the word a post must contain (default swift)
//   FEEDGEN_PLC_URL        the PLC directory (default the PDS's /plc, as the shared test PDS serves)
//   FEEDGEN_SOURCE         firehose (default: the PDS's, every commit proved) or jetstream
//   FEEDGEN_JETSTREAM_URL  the Jetstream service (default the PDS, as the shared test PDS serves it)
//   FEEDGEN_CHECKPOINT     with jetstream: a file for the cursor and the index, so a restart resumes
let environment = ProcessInfo.processInfo.environment
guard let pdsText = environment["FEEDGEN_PDS_URL"], let pds = URL(string: pdsText),
    let publisher = environment["FEEDGEN_PUBLISHER_DID"]
else {
    print("set FEEDGEN_PDS_URL and FEEDGEN_PUBLISHER_DID (see the top of this file)")
    exit(2)
}
let port = environment["FEEDGEN_PORT"].flatMap(Int.init) ?? 3000
let hostname = environment["FEEDGEN_HOSTNAME"] ?? "localhost:\(port)"
let word = environment["FEEDGEN_WORD"] ?? "swift"
let plc = environment["FEEDGEN_PLC_URL"].flatMap(URL.init(string:)) ?? pds.appendingPathComponent("plc")
let scheme = hostname.hasPrefix("localhost") ? "http" : "https"
guard let endpoint = URL(string: "\(scheme)://\(hostname)") else {
    print("FEEDGEN_HOSTNAME is not a host name: \(hostname)")
    exit(2)
}

let resolver = CachingIdentityResolver(
    wrapping: StandardIdentityResolver(
        handles: WellKnownHandleResolver(),
        dids: StandardDIDResolver(plc: PLCDirectoryResolver(directory: plc), web: WebDIDResolver())))
let configuration = FeedGeneratorService.Configuration(
    serviceDID: DID(rawValue: "did:web:" + hostname.replacingOccurrences(of: ":", with: "%3A")),
    serviceEndpoint: endpoint, publisherDID: DID(rawValue: publisher), feedName: word)
let index = FeedIndex(rule: FeedIndex.containing(word: word))
let service = FeedGeneratorService(
    configuration: configuration, index: index,
    verifier: ServiceAuthVerifier(audience: configuration.serviceDID, resolver: resolver))
let source = environment["FEEDGEN_SOURCE"] ?? "firehose"
guard source == "firehose" || source == "jetstream" else {
    print("FEEDGEN_SOURCE is firehose or jetstream, not \(source)")
    exit(2)
}
let follower = FirehoseFollower(service: pds, resolver: resolver, index: index) { failure in
    print("skipped a commit that does not prove out: \(failure)")
}
let jetstream = JetstreamFollower(
    client: JetstreamClient(service: environment["FEEDGEN_JETSTREAM_URL"].flatMap(URL.init(string:)) ?? pds),
    index: index,
    checkpoint: environment["FEEDGEN_CHECKPOINT"].map { FeedCheckpointFile(url: URL(fileURLWithPath: $0)) }
) { error in
    print("jetstream: \(error)")
}

print("\(configuration.serviceDID.rawValue) serves \(configuration.feedURI.rawValue) on port \(port)")
await withTaskGroup(of: Void.self) { group in
    group.addTask {
        if source == "jetstream" {
            do { try await jetstream.run() } catch { print("cannot resume: \(error)") }
        } else {
            await follower.run()
        }
    }
    group.addTask {
        do {
            try await XRPCHTTPServer(router: service.router, configuration: .init(host: "0.0.0.0", port: port)).run()
        } catch {
            print("the server stopped: \(error)")
        }
    }
    await group.next()
    group.cancelAll()
}
