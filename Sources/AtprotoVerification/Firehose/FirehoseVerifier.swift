import AtprotoCrypto
import AtprotoData
import AtprotoIdentityResolution
import AtprotoSyntax
import Foundation
import XRPCCore

/// Proves every `#commit` of a `com.atproto.sync.subscribeRepos` stream before it is delivered: the
/// commit is the repository's and signed by its key, and (sync 1.1) undoing its operations on the
/// partial MST it carries gives `prevData`, the root before the commit.
///
/// ```swift
/// var client = XRPCClient(agent: agent)
/// client.eventStreams.frameCheck = FirehoseVerifier(resolver: resolver)
/// for try await message in client.com.atproto.sync.subscribeRepos(cursor: saved) { ... }
/// ```
///
/// An `#identity` event drops the account from the resolver's cache (`IdentityResolver.invalidate(did:)`,
/// whatever wraps the cache) so the next commit is checked against the new key; a signature that fails is checked once more
/// after resolving the DID again. `#sync` events have their commit's signature checked. A commit that
/// fails ends the stream with `XRPCEventStreamError.Code.frameCheckFailed`, or, with
/// ``FailurePolicy/report(_:)``, is handed to the app and not delivered: never dropped silently,
/// never passed as valid.
public struct FirehoseVerifier: XRPCEventFrameCheck {
    /// What happens to a message that fails.
    public enum FailurePolicy: Sendable {
        /// End the stream with the failure (the default).
        case endStream
        /// Hand the failure to the app, skip the message, go on.
        case report(@Sendable (FirehoseFailure) async -> Void)
    }

    /// Resolves the accounts' keys; a `CachingIdentityResolver` keeps it cheap.
    public let resolver: any IdentityResolver
    /// What happens to a message that fails.
    public let policy: FailurePolicy
    /// Whether a `#commit` without `prevData` (written before sync 1.1) passes on its signature
    /// alone. Default `false`: it fails as unproved.
    public let acceptsCommitsWithoutPrevData: Bool
    /// Bounds on each commit's CAR.
    public let limits: AtprotoVerificationLimits
    /// The keys read from documents so far (shared by copies of this verifier).
    let keys = SigningKeyCache()

    /// Creates a verifier.
    public init(
        resolver: any IdentityResolver,
        policy: FailurePolicy = .endStream,
        acceptsCommitsWithoutPrevData: Bool = false,
        limits: AtprotoVerificationLimits = AtprotoVerificationLimits(maximumCARSize: 2 << 20, maximumBlocks: 10_000)
    ) {
        self.resolver = resolver
        self.policy = policy
        self.acceptsCommitsWithoutPrevData = acceptsCommitsWithoutPrevData
        self.limits = limits
    }

    /// Checks one message; see `XRPCEventFrameCheck`.
    public func check(type: String, body: [String: AtprotoDataModelValue], nsid: NSID) async throws -> Bool {
        let name = type.hasPrefix("#") ? String(type.dropFirst()) : type.components(separatedBy: "#").last ?? type
        do {
            switch name {
            case "commit": try await verifyCommit(body)
            case "sync": try await verifySync(body)
            case "identity":
                if case .string(let did)? = body["did"] { await resolver.invalidate(did: DID(rawValue: did)) }
            default: break
            }
            return true
        } catch let error as AtprotoVerificationError {
            let failure = FirehoseFailure(
                type: type, sequence: body["seq"].flatMap(Self.integer), repo: Self.text(body["repo"] ?? body["did"]),
                underlying: error)
            switch policy {
            case .endStream: throw failure
            case .report(let handler):
                await handler(failure)
                return false
            }
        }
    }

    // MARK: #commit

    func verifyCommit(_ body: [String: AtprotoDataModelValue]) async throws {
        let event = try CommitEvent(body)
        let (commit, blocks) = try CommitCAR.read(event.blocks, root: event.commit, limits: limits)
        guard commit.did == event.repo else {
            throw AtprotoVerificationError(
                .wrongDID, message: "the commit is by \(commit.did.rawValue), the event names \(event.repo.rawValue)")
        }
        guard commit.rev == event.rev else {
            throw AtprotoVerificationError(
                .malformedData, message: "the commit's rev \(commit.rev) is not the event's \(event.rev)")
        }
        try await checkSignature(commit)
        guard let prevData = event.prevData else {
            // No prevData: the first commit of a repository, whose tree before is the empty tree (the
            // inversion proves it), or a commit written before sync 1.1.
            do {
                try CommitInversion.check(
                    event.operations, data: commit.data, blocks: blocks, prevData: MSTTree.emptyRoot)
            } catch {
                if acceptsCommitsWithoutPrevData { return }
                throw AtprotoVerificationError(
                    .brokenProof,
                    message:
                        "the commit has no prevData and is not the first of its repository (written before sync 1.1?): \(error.message)"
                )
            }
            return
        }
        try CommitInversion.check(event.operations, data: commit.data, blocks: blocks, prevData: prevData)
    }

    // MARK: #sync

    func verifySync(_ body: [String: AtprotoDataModelValue]) async throws {
        guard case .string(let did)? = body["did"], case .bytes(let blocks)? = body["blocks"] else {
            throw AtprotoVerificationError(
                .malformedData, message: "a #sync event needs did (string) and blocks (bytes)")
        }
        let (commit, _) = try CommitCAR.read(blocks, root: nil, limits: limits)
        guard commit.did.rawValue == did else {
            throw AtprotoVerificationError(
                .wrongDID, message: "the #sync commit is by \(commit.did.rawValue), the event names \(did)")
        }
        try await checkSignature(commit)
    }

    /// Checks the commit's signature with the account's key; on failure resolves the DID once more
    /// (the key may have rotated) and checks again.
    private func checkSignature(_ commit: SignedCommit) async throws {
        if try await key(for: commit.did, fresh: false).map(commit.isSigned(by:)) == true { return }
        guard let key = try await key(for: commit.did, fresh: true) else {
            throw AtprotoVerificationError(
                .unsupportedKey, message: "\(commit.did.rawValue) has no usable #atproto key")
        }
        try commit.checkSignature(by: key)
    }

    private func key(for did: DID, fresh: Bool) async throws -> AtprotoPublicKey? {
        if fresh { await resolver.invalidate(did: did) }
        let document: DIDDocument
        do {
            document = try await resolver.resolveDID(did)
        } catch {
            throw AtprotoVerificationError(.identityUnavailable, message: "\(error)")
        }
        do {
            return try keys.signingKey(of: document)
        } catch {
            throw AtprotoVerificationError(.unsupportedKey, message: "\(did.rawValue): \(error)")
        }
    }

    static func integer(_ value: AtprotoDataModelValue) -> Int? {
        if case .integer(let number) = value { return number }
        return nil
    }

    static func text(_ value: AtprotoDataModelValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }
}

/// A firehose message that failed verification: the ``AtprotoVerificationError`` behind it, and which
/// message it was.
public struct FirehoseFailure: AtprotoError {
    /// The message type (`#commit`, `#sync`).
    public var type: String
    /// Its `seq`.
    public var sequence: Int?
    /// The account.
    public var repo: String?
    /// What failed.
    public var underlying: AtprotoVerificationError

    /// Which claim failed: the underlying error's code.
    public var code: AtprotoVerificationError.Code { underlying.code }
    /// What was being checked and what was wrong: the underlying error's message.
    public var message: String { underlying.message }

    public var description: String {
        "\(type) seq \(sequence.map(String.init) ?? "?") of \(repo ?? "?"): \(underlying)"
    }
}
