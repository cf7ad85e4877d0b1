import AtprotoCrypto
import AtprotoIdentityResolution
import AtprotoSyntax
import Foundation

/// Public keys already parsed, by the text of their verification method: parsing one (base58, then
/// the point's square root modulo p) costs as much as the signature check itself, and a service sees
/// the same callers again and again. A rotated key is new text, so it is parsed afresh. Past
/// `capacity` texts it starts over.
///
/// It also remembers, for a short while, the key that last proved a token of each issuer, so that a
/// caller's next tokens are checked without a call into the resolver (an actor hop that costs about
/// as much as the signature). A token that key does not prove goes to the resolver as before. The
/// key is remembered by DID and key ID together: a labeler's `#atproto_label` key, remembered from
/// a `#atproto_labeler` token, never proves a token of the account itself (`#atproto`).
// @unchecked Sendable: `keys` and `recent` are read and written only under `lock`; the rest is immutable.
final class ParsedKeys: @unchecked Sendable {
    // Safety: `keys` and `recent` are touched only under `lock`; the rest is immutable.
    private let lock = NSLock()
    private var keys: [String: AtprotoPublicKey] = [:]
    private var recent: [String: (key: AtprotoPublicKey, until: Int)] = [:]
    let capacity: Int

    /// The key `keyID` of `did` that last proved a token, while it is remembered.
    func recentKey(of did: DID, keyID: String, now: Int) -> AtprotoPublicKey? {
        lock.withLock {
            guard let entry = recent[Self.recentKey(did, keyID)], now < entry.until else { return nil }
            return entry.key
        }
    }

    /// Remembers `key` as `did`'s key `keyID` until `until` (Unix seconds).
    func remember(_ key: AtprotoPublicKey, of did: DID, keyID: String, until: Int) {
        lock.withLock {
            if recent.count >= capacity { recent.removeAll(keepingCapacity: true) }
            recent[Self.recentKey(did, keyID)] = (key, until)
        }
    }

    /// Forgets `did`'s remembered key `keyID`.
    func forget(_ did: DID, keyID: String) {
        _ = lock.withLock { recent.removeValue(forKey: Self.recentKey(did, keyID)) }
    }

    /// `did#keyID`: a DID has no `#`, so no two pairs share a text.
    private static func recentKey(_ did: DID, _ keyID: String) -> String {
        did.rawValue + "#" + keyID
    }

    init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// The key `keyID` (`atproto`, `atproto_label`) of `document`, or `nil` when it has none that can
    /// be read.
    func signingKey(of document: DIDDocument, keyID: String) -> AtprotoPublicKey? {
        guard let method = document.verificationMethod(fragment: keyID) else { return nil }
        guard let multibase = method.publicKeyMultibase else { return try? method.publicKey() }
        let text = method.type + " " + multibase
        if let known = lock.withLock({ keys[text] }) { return known }
        guard let key = try? method.publicKey() else { return nil }
        lock.withLock {
            if keys.count >= capacity { keys.removeAll(keepingCapacity: true) }
            keys[text] = key
        }
        return key
    }
}
