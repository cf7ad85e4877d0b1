import Foundation

/// Random values for PKCE verifiers, `state`, and JWT `jti`s, from the system's cryptographically
/// secure generator (`SystemRandomNumberGenerator`: `arc4random_buf` on Apple platforms, `getrandom`
/// on Linux).
package enum SecureRandom {
    /// `count` random bytes.
    package static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<max(0, count)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// `byteCount` random bytes as base64url text (32 bytes give 43 characters).
    package static func token(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(byteCount))
    }
}
