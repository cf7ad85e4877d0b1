import AtprotoCrypto
import AtprotoIdentityResolution
import Foundation

// @unchecked Sendable: `keys` is read and written under `lock`; `capacity` is a `let`.
/// Keys already read from DID documents, by their text (`publicKeyMultibase` with the method's type).
///
/// Reading a key decodes base58 and decompresses the point (a square root modulo p): on the
/// firehose that cost a fifth of a signature verification per commit, for the same few keys again
/// and again. A key is a pure function of its text, so a key changed in the document (a rotation) is
/// new text and is read afresh; nothing here decides which key an account has, the resolver does.
/// Bounded: past `capacity` keys the cache starts over.
final class SigningKeyCache: @unchecked Sendable {
    private struct Text: Hashable {
        var type: String
        var multibase: String
    }

    let capacity: Int
    private let lock = NSLock()
    private var keys: [Text: AtprotoPublicKey] = [:]

    init(capacity: Int = 65_536) {
        self.capacity = max(1, capacity)
    }

    /// The number of keys held.
    var count: Int { lock.withLock { keys.count } }

    /// The `#atproto` key of `document`, or `nil` when it lists none; as
    /// `DIDDocument.signingKey()`, read once per distinct key text.
    func signingKey(of document: DIDDocument) throws(AtprotoPublicKeyError) -> AtprotoPublicKey? {
        guard let method = document.verificationMethod(fragment: "atproto") else { return nil }
        guard let multibase = method.publicKeyMultibase else { return try method.publicKey() }
        let text = Text(type: method.type, multibase: multibase)
        if let known = lock.withLock({ keys[text] }) { return known }
        let key = try method.publicKey()
        lock.withLock {
            if keys.count >= capacity { keys.removeAll(keepingCapacity: true) }
            keys[text] = key
        }
        return key
    }
}
