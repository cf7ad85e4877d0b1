// Profiles and accounts: the viewer's relationship with the account (mutes, blocks, lists) and the
// labels on the account itself or on its profile record.

import AppBskyLexicons
import ComAtprotoLexicons
import XRPCRuntime

/// A view of an account that moderation can decide on: every profile view of the SDK conforms.
public protocol ModerationProfileSubject: Sendable {
    /// The account's DID.
    var did: DID { get }
    /// The labels on the account and on its profile record.
    var labels: [ComAtprotoLabelDefs.Label]? { get }
    /// The viewer's relationship with the account.
    var viewer: AppBskyActorDefs.ViewerState? { get }
}

extension AppBskyActorDefs.ProfileViewBasic: ModerationProfileSubject {}
extension AppBskyActorDefs.ProfileView: ModerationProfileSubject {}
extension AppBskyActorDefs.ProfileViewDetailed: ModerationProfileSubject {}

extension ModerationOptions {
    /// The decision for a profile: the account's relationships and labels, and its profile record's labels.
    public func decide(profile: some ModerationProfileSubject) -> ModerationDecision {
        var decision = accountDecision(profile)
        decision.causes.append(contentsOf: profileDecision(profile).causes)
        return decision
    }

    /// The account part: mutes, blocks in either direction, and labels on the account (every label
    /// except those on the profile record, but `!no-unauthenticated` there counts for the account too).
    func accountDecision(_ subject: some ModerationProfileSubject) -> ModerationDecision {
        var decision = ModerationDecision(did: subject.did, isMe: isViewer(subject.did))
        decision.addRelationships(subject.viewer)
        for label in subject.labels ?? [] where !Self.isProfileRecordLabel(label) || label.val == "!no-unauthenticated"
        {
            decision.addLabel(label, target: .account, options: self)
        }
        return decision
    }

    /// The profile-record part: labels on `at://<did>/app.bsky.actor.profile/self`.
    func profileDecision(_ subject: some ModerationProfileSubject) -> ModerationDecision {
        var decision = ModerationDecision(did: subject.did, isMe: isViewer(subject.did))
        for label in subject.labels ?? [] where Self.isProfileRecordLabel(label) {
            decision.addLabel(label, target: .profile, options: self)
        }
        return decision
    }

    /// The account and profile parts together, after `decision`'s own causes.
    func withAuthor(_ decision: ModerationDecision, _ author: some ModerationProfileSubject) -> ModerationDecision {
        var result = decision
        result.causes.append(contentsOf: accountDecision(author).causes)
        result.causes.append(contentsOf: profileDecision(author).causes)
        return result
    }

    private static func isProfileRecordLabel(_ label: ComAtprotoLabelDefs.Label) -> Bool {
        label.uri.rawValue.hasSuffix("/app.bsky.actor.profile/self")
    }
}

extension ModerationDecision {
    /// Mutes and blocks from the viewer's relationship with an account; a list's mute or block is
    /// attributed to the list.
    mutating func addRelationships(_ viewer: AppBskyActorDefs.ViewerState?) {
        guard let viewer else { return }
        if viewer.muted == true {
            let source: ModerationCauseSource = viewer.mutedByList.map { .list($0) } ?? .user
            causes.append(ModerationCause(kind: .muted, source: source, priority: 6))
        }
        if let blocking = viewer.blocking, !blocking.rawValue.isEmpty {
            let source: ModerationCauseSource = viewer.blockingByList.map { .list($0) } ?? .user
            causes.append(ModerationCause(kind: .blocking, source: source, priority: 3))
        }
        if viewer.blockedBy == true {
            causes.append(ModerationCause(kind: .blockedBy, priority: 4))
        }
    }
}
