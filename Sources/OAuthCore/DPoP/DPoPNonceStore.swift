import Foundation

// @unchecked Sendable: `nonces` is read and written under `lock`.
/// The latest DPoP nonce of each origin (authorization server and every resource server apart),
/// updated from every answer that carries `DPoP-Nonce`. Thread-safe; at most 32 origins are kept.
public final class DPoPNonceStore: @unchecked Sendable {
    private let lock = NSLock()
    private var nonces: [String: String]

    /// A store starting with `nonces` (origin -> nonce), as an archive kept them.
    public init(_ nonces: [String: String] = [:]) {
        self.nonces = nonces
    }

    /// The nonce to put in the next proof for `url`'s origin.
    public func nonce(for url: URL) -> String? {
        let origin = SecureURL.origin(of: url)
        return lock.withLock { nonces[origin] }
    }

    /// Remembers the `DPoP-Nonce` of an answer from `url`, if it has one; returns whether it changed.
    @discardableResult
    public func update(from url: URL, headerValue: String?) -> Bool {
        guard let value = headerValue?.trimmingCharacters(in: .whitespaces), !value.isEmpty, value.utf8.count <= 512
        else { return false }
        let origin = SecureURL.origin(of: url)
        return lock.withLock {
            guard nonces[origin] != value else { return false }
            if nonces[origin] == nil, nonces.count >= 32, let first = nonces.keys.first { nonces[first] = nil }
            nonces[origin] = value
            return true
        }
    }

    /// Every origin's nonce, for an archive.
    public var snapshot: [String: String] { lock.withLock { nonces } }
}
