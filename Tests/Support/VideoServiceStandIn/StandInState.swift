import AppBskyLexicons
import AtprotoData
import Foundation
import XRPCServer

/// One upload session of the stand-in.
struct UploadSession {
    var did: DID
    var size: Int
    var partSize: Int
    var partCount: Int
    var expiresAt: LexiconDatetime
    var parts: [Int: Data] = [:]
    var state = "created"
    var polls = 0
    var blob: LexiconBlob?
}

/// The stand-in's sessions and calls, each method's rules as its lexicon states them.
struct StandInState {
    let configuration: VideoServiceStandIn.Configuration
    var calls: [VideoServiceStandIn.Call] = []
    var sessions: [String: UploadSession] = [:]
    var partFailures: [Int: Int]
    var partsLost: Set<Int>
    private var nextJob = 1

    init(configuration: VideoServiceStandIn.Configuration) {
        self.configuration = configuration
        partFailures = configuration.partFailures
        partsLost = configuration.partsLost
    }

    static func error(_ name: String, status: Int = 400, _ message: String) -> XRPCServerError {
        XRPCServerError(.init(rawValue: name), status: status, message: message)
    }

    mutating func start(_ input: AppBskyVideoStartUpload.Input, by did: DID) throws -> AppBskyVideoStartUpload.Output {
        guard input.mimeType == "video/mp4" else { throw Self.error("UnsupportedContentType", input.mimeType) }
        guard input.sizeBytes <= configuration.maxBytes else {
            throw Self.error("VideoTooLarge", "\(input.sizeBytes) bytes, over \(configuration.maxBytes)")
        }
        let jobId = "job-\(nextJob)"
        nextJob += 1
        let size = configuration.partSize
        let session = UploadSession(
            did: did, size: input.sizeBytes, partSize: size, partCount: (input.sizeBytes + size - 1) / size,
            expiresAt: LexiconDatetime(Date().addingTimeInterval(3600)))
        sessions[jobId] = session
        return .init(jobId: jobId, partSizeBytes: size, partCount: session.partCount, expiresAt: session.expiresAt)
    }

    /// The session `jobId` of `did`.
    func session(_ jobId: String, of did: DID) throws -> UploadSession {
        guard let session = sessions[jobId], session.did == did else {
            throw Self.error("UploadNotFound", "no upload \(jobId) of \(did.rawValue)")
        }
        return session
    }

    mutating func part(_ number: Int, of jobId: String, _ data: Data, by did: DID) throws
        -> AppBskyVideoUploadPart.Output
    {
        var session = try session(jobId, of: did)
        switch session.state {
        case "created": break
        case "finishing": throw Self.error("UploadNotReady", "a finish is in progress")
        case "aborted": throw Self.error("UploadAborted", "the upload was aborted")
        case "completed": throw Self.error("UploadAlreadyCompleted", "the upload is complete")
        default: throw Self.error("UploadFailed", session.state)
        }
        guard (1...session.partCount).contains(number) else {
            throw Self.error("InvalidPartNumber", "part \(number) of \(session.partCount)")
        }
        let expected = number < session.partCount ? session.partSize : session.size - session.partSize * (number - 1)
        guard data.count == expected else {
            throw Self.error("PartSizeMismatch", "part \(number) is \(data.count) bytes, not \(expected)")
        }
        if let left = partFailures[number], left > 0 {
            partFailures[number] = left - 1
            throw Self.error("ServiceOverloaded", status: 503, "try again")
        }
        if partsLost.remove(number) == nil { session.parts[number] = data }
        sessions[jobId] = session
        return .init(partNumber: number, sizeBytes: data.count)
    }

    mutating func finish(_ jobId: String, by did: DID) throws -> AppBskyVideoFinishUpload.Output {
        var session = try session(jobId, of: did)
        if session.state == "aborted" { throw Self.error("UploadAborted", "the upload was aborted") }
        if session.state == "created" {
            let missing = (1...session.partCount).filter { session.parts[$0] == nil }
            guard missing.isEmpty else {
                throw Self.error("MissingParts", "missing parts: \(missing.map(String.init).joined(separator: ", "))")
            }
            let bytes = (1...session.partCount).reduce(into: Data()) { $0 += session.parts[$1] ?? Data() }
            guard bytes.count >= 8, bytes[4..<8] == Data("ftyp".utf8) else {
                throw Self.error("UnsupportedContentType", "the bytes are not an MP4 file")
            }
            session.state = "completed"
            session.blob = LexiconBlob(
                ref: CIDLink(CID(sha256Of: bytes, codec: .raw).string), mimeType: "video/mp4", size: bytes.count)
            sessions[jobId] = session
        }
        return .init(completedJobId: jobId, jobStatus: jobStatus(jobId, session))
    }

    func jobStatus(_ jobId: String, _ session: UploadSession) -> AppBskyVideoDefs.JobStatus {
        if let failure = configuration.jobFailure {
            return .init(
                jobId: jobId, did: session.did, state: .jobstatefailed, error: "the video could not be processed",
                failureCode: .init(rawValue: failure))
        }
        if session.polls < configuration.processingPolls {
            return .init(
                jobId: jobId, did: session.did, state: .jobstateencoding,
                progress: session.polls * 100 / max(1, configuration.processingPolls))
        }
        return .init(jobId: jobId, did: session.did, state: .jobstatecompleted, blob: session.blob, progress: 100)
    }

    mutating func job(_ jobId: String, by did: DID) throws -> AppBskyVideoGetJobStatus.Output {
        var session = try session(jobId, of: did)
        guard session.state == "completed" else { throw Self.error("UploadNotFound", "no job \(jobId)") }
        session.polls += 1
        sessions[jobId] = session
        return .init(jobStatus: jobStatus(jobId, session))
    }

    func status(_ jobId: String, by did: DID) throws -> AppBskyVideoGetUploadStatus.Output {
        let session = try session(jobId, of: did)
        let completed = session.state == "completed"
        return .init(
            jobId: jobId, partSizeBytes: session.partSize, partCount: session.partCount,
            receivedParts: session.parts.keys.sorted(), expiresAt: session.expiresAt,
            state: .init(rawValue: session.state),
            completedJobId: completed ? jobId : nil, jobStatus: completed ? jobStatus(jobId, session) : nil)
    }

    /// `uploadVideo`: the whole file in one request for `account` (the `did` query parameter, which
    /// must be the token's issuer), processed as a finished multipart upload is.
    mutating func uploadWhole(_ data: Data, account: String?, by did: DID) throws -> AppBskyVideoUploadVideo.Output {
        // Part 1's faults apply to the one request.
        if let failures = partFailures[1], failures > 0 {
            partFailures[1] = failures - 1
            throw Self.error("ServiceOverloaded", status: 503, "try again")
        }
        guard account == did.rawValue else {
            throw Self.error("InvalidRequest", "the did parameter \(account ?? "(none)") is not the token's issuer")
        }
        guard data.count <= configuration.maxBytes else {
            throw Self.error("VideoTooLarge", "\(data.count) bytes, over \(configuration.maxBytes)")
        }
        guard data.count >= 8, data[data.startIndex + 4..<data.startIndex + 8] == Data("ftyp".utf8) else {
            throw Self.error("UnsupportedContentType", "the bytes are not an MP4 file")
        }
        let jobId = "job-\(nextJob)"
        nextJob += 1
        var session = UploadSession(
            did: did, size: data.count, partSize: data.count, partCount: 1,
            expiresAt: LexiconDatetime(Date().addingTimeInterval(3600)))
        session.state = "completed"
        session.blob = LexiconBlob(
            ref: CIDLink(CID(sha256Of: data, codec: .raw).string), mimeType: "video/mp4", size: data.count)
        sessions[jobId] = session
        return .init(jobStatus: jobStatus(jobId, session))
    }

    mutating func abort(_ jobId: String, by did: DID) throws -> AppBskyVideoAbortUpload.Output {
        var session = try session(jobId, of: did)
        switch session.state {
        case "created":
            session.state = "aborted"
            session.parts = [:]
            sessions[jobId] = session
            return .init(state: .init(rawValue: "aborted"))
        case "finishing": throw Self.error("UploadNotReady", "a finish is in progress")
        case "completed": return .init(state: .init(rawValue: "completed"), completedJobId: jobId)
        default: return .init(state: .init(rawValue: session.state))
        }
    }
}
