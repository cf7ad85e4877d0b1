import AtprotoIdentityResolution
import BlueskyKit
import Foundation
import VideoServiceStandIn
import XCTest

/// A new account on the shared PDS with a video stand-in that checks its tokens against the
/// account's key (resolved through the PDS's `/plc` directory); skipped without ATPROTO_PDS_URL.
struct VideoFixture {
    let pds: URL
    let session: PasswordSession
    let client: XRPCClient
    let did: DID
    let service: VideoServiceStandIn

    /// The shared PDS's URL; skips the test when it is not running.
    static func pdsURL() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["ATPROTO_PDS_URL"], !text.isEmpty else {
            throw XCTSkip("ATPROTO_PDS_URL is not set: run eval \"$(scripts/pds.sh start)\" first")
        }
        return try XCTUnwrap(URL(string: text))
    }

    static func make(_ configuration: VideoServiceStandIn.Configuration = .init()) async throws -> VideoFixture {
        let pds = try pdsURL()
        let handle = "video\(UInt32.random(in: 0...UInt32.max)).test"
        let password = "pw-\(UUID().uuidString)"
        _ = try await XRPCClient(agent: URLSessionAgent(serviceURL: pds)).com.atproto.server.createAccount(
            handle: ATHandle(rawValue: handle), email: "\(handle)@example.test", password: password)
        let session = PasswordSession(service: pds)
        let created = try await session.login(ATIdentifier(rawValue: handle), password: password)
        let resolver = StandardIdentityResolver(nameservers: [], plcDirectory: pds.appendingPathComponent("plc"))
        let service = try VideoServiceStandIn(resolver: resolver, pds: pds, configuration: configuration)
        return VideoFixture(
            pds: pds, session: session, client: XRPCClient(agent: session), did: created.did, service: service)
    }

    var videoService: BlueskyVideoService { BlueskyVideoService(did: service.did, url: service.url) }

    /// An uploader to the stand-in with delays of zero (no test waits on a clock).
    func uploader(
        attempts: Int = 3, maximumPolls: Int = 20, checksLimits: Bool = true,
        method: BlueskyVideoUploadMethod = .multipart
    ) -> BlueskyVideoUploader {
        BlueskyVideoUploader(
            session: session, service: videoService, method: method,
            policy: BlueskyVideoUploadPolicy(
                attempts: attempts, retryDelay: .zero, firstPollDelay: .zero, maximumPollDelay: .zero,
                maximumPolls: maximumPolls, checksUploadLimits: checksLimits))
    }

    /// The methods the stand-in accepted, in order, as their last NSID segment.
    var methods: [String] { service.calls.map { String($0.method.rawValue.split(separator: ".").last ?? "") } }
}

/// `count` bytes that start like an MP4 file (`ftyp` at offset 4), the rest from a seed.
func mp4Bytes(_ count: Int, seed: UInt8 = 7) -> Data {
    var data = Data([0, 0, 0, 0x18] + Array("ftypmp42".utf8))
    var value = seed
    while data.count < count {
        value = value &* 31 &+ 17
        data.append(value)
    }
    return data.prefix(count)
}

/// Every event of `upload`, read to its end.
func collect(_ upload: BlueskyVideoUpload) async throws(BlueskyVideoUploadError) -> [BlueskyVideoUploadEvent] {
    var events: [BlueskyVideoUploadEvent] = []
    var iterator = upload.makeAsyncIterator()
    while let event = try await iterator.next() { events.append(event) }
    return events
}
