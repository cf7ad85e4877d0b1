// An account's status (the "live" badge and its link card): the status's own labels count as content
// labels, then the account's relationships and labels, as for any content by that account.

import AppBskyLexicons
import XRPCRuntime

/// A profile view that can carry the account's status: every app.bsky profile view conforms.
public protocol ModerationStatusSubject: ModerationProfileSubject {
    /// The account's status, when it has one.
    var status: AppBskyActorDefs.StatusView? { get }
}

extension AppBskyActorDefs.ProfileViewBasic: ModerationStatusSubject {}
extension AppBskyActorDefs.ProfileView: ModerationStatusSubject {}
extension AppBskyActorDefs.ProfileViewDetailed: ModerationStatusSubject {}

extension ModerationOptions {
    /// The decision for the status an account shows (`profile.status`): the status's labels, then
    /// the account's relationships and labels (a muted or blocked account's status is filtered as
    /// its posts are). A profile without a status gets the account's decision alone.
    public func decide(status profile: some ModerationStatusSubject) -> ModerationDecision {
        contentDecision(labels: profile.status?.labels, author: profile)
    }
}
