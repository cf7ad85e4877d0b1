// The profile record (`app.bsky.actor.profile/self`) edited with compare-and-swap: read, changed by the
// app, written only if nobody wrote it in between (`swapRecord`), again from a fresh read when someone
// did. Avatars and banners are checked against the lexicon's blob limits before they are uploaded.

import AppBskyLexicons
import AtprotoRecordCalls
import ComAtprotoLexicons
import Foundation
import XRPCRuntime

/// An image field of the profile record.
public enum BlueskyProfileImageField: String, Sendable, Hashable, CaseIterable {
    /// The round picture (`avatar`).
    case avatar
    /// The wide picture over the profile (`banner`).
    case banner

    /// The field's largest size in bytes (`maxSize`), read from the installed lexicon; `nil` when it
    /// sets none.
    public var maxSize: Int? {
        guard case .integer(let size)? = constraint("maxSize") else { return nil }
        return size
    }

    /// The MIME types the field accepts (`accept`, `image/*` style patterns allowed), read from the
    /// installed lexicon; empty when it sets none (any type).
    public var acceptedTypes: [String] {
        guard case .array(let values)? = constraint("accept") else { return [] }
        return values.compactMap(\.stringValue)
    }

    /// Checks an image against the field's limits.
    ///
    /// - Throws: ``BlueskyProfileError`` `imageTypeNotAccepted` or `imageTooLarge`, naming the field.
    public func check(byteCount: Int, mimeType: String) throws(BlueskyProfileError) {
        let accepted = acceptedTypes
        if !accepted.isEmpty, !accepted.contains(where: { Self.mimeType(mimeType, matches: $0) }) {
            throw BlueskyProfileError(
                .imageTypeNotAccepted, field: rawValue,
                message: "is \(mimeType), which the lexicon does not accept (\(accepted.joined(separator: ", ")))")
        }
        if let maxSize, byteCount > maxSize {
            throw BlueskyProfileError(
                .imageTooLarge, field: rawValue, limit: maxSize,
                message: "is \(byteCount) bytes, over the lexicon's \(maxSize)")
        }
    }

    private func constraint(_ name: String) -> JSONValue? {
        var node: JSONValue? = AppBskyLexiconsSchemas.catalog.definition(nsid: "app.bsky.actor.profile", name: "main")
        for key: String in ["record", "properties", rawValue, name] {
            guard let fields: [String: JSONValue] = node?.objectValue else { return nil }
            node = fields[key]
        }
        return node
    }

    private static func mimeType(_ type: String, matches pattern: String) -> Bool {
        let lowered: String = type.lowercased()
        let wanted: String = pattern.lowercased()
        if wanted == "*/*" { return true }
        guard wanted.hasSuffix("/*") else { return lowered == wanted }
        let prefix = String(wanted.dropLast())
        return lowered.hasPrefix(prefix) && lowered.count > prefix.count
    }
}

extension XRPCClient {
    /// Uploads an image for the profile's `field`, after checking it against the field's limits, and
    /// returns the blob to set in the record (in ``updateProfile(repo:maxAttempts:isolation:_:)``).
    ///
    /// - Throws: ``BlueskyProfileError`` (`imageTypeNotAccepted`, `imageTooLarge`) before anything is
    ///   sent, then the errors of `uploadBlob` (`XRPCCallError`).
    public func uploadProfileImage(_ data: Data, mimeType: String, for field: BlueskyProfileImageField) async throws
        -> LexiconBlob
    {
        try field.check(byteCount: data.count, mimeType: mimeType)
        return try await uploadBlob(data, mimeType: mimeType)
    }

    /// Edits the profile record of `repo` (the signed-in account) with compare-and-swap: reads it (or
    /// starts from an empty one when there is none), lets `change` edit it, and writes it only if it
    /// is still the version read (`swapRecord`; a profile created meanwhile counts too). When another
    /// writer got there first (`InvalidSwap`), it reads again and calls `change` again, at most
    /// `maxAttempts` times in all.
    ///
    /// `change` runs on the caller's actor (`isolation`, left to its default) and may run more than
    /// once, each time on the record as read then; an error it throws ends the edit with nothing
    /// written.
    ///
    /// - Returns: The written profile's URI and CID.
    /// - Throws: ``BlueskyProfileError`` `conflict` after `maxAttempts` lost swaps; the errors of
    ///   `getRecord` and `putRecord` (`XRPCCallError`, `invalidInput` for a record that breaks its
    ///   lexicon, with nothing sent); what `change` throws.
    @discardableResult
    public func updateProfile(
        repo: DID, maxAttempts: Int = 5, isolation: isolated (any Actor)? = #isolation,
        _ change: (inout AppBskyActorProfile) throws -> Void
    ) async throws -> ComAtprotoRepoPutRecord.Output {
        let identifier = ATIdentifier(rawValue: repo.rawValue)
        var lastConflict: XRPCCallError?
        for _ in 0..<max(1, maxAttempts) {
            var profile = AppBskyActorProfile()
            var swap = LexiconNullable<CIDString>.null
            do {
                let current = try await getRecord(
                    AppBskyActorProfile.self, repo: identifier, rkey: "self", validating: false)
                profile = current.value
                if let cid = current.cid { swap = .value(cid) }
            } catch {
                // No profile yet: written only if there still is none. (A `catch where` here makes
                // Swift 6.3's SIL passes loop forever, so the filter is a rethrow.)
                if error.declaredError(for: ComAtprotoRepoGetRecord.self) != .recordNotFound { throw error }
            }
            try change(&profile)
            do {
                return try await putRecord(profile, repo: identifier, rkey: "self", swapRecord: swap)
            } catch {
                if error.declaredError(for: ComAtprotoRepoPutRecord.self) != .invalidSwap { throw error }
                lastConflict = error
            }
        }
        throw BlueskyProfileError(
            .conflict, limit: max(1, maxAttempts),
            message: "the profile changed under every one of \(max(1, maxAttempts)) attempts; nothing was written",
            underlying: lastConflict)
    }
}
