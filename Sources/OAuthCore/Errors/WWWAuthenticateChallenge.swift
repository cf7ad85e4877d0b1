import Foundation
import HTTPTransport

/// One challenge of a `WWW-Authenticate` header (RFC 9110 section 11.6.1): a scheme and its
/// parameters, as `DPoP error="use_dpop_nonce", error_description="..."`.
public struct WWWAuthenticateChallenge: Sendable, Hashable {
    /// The scheme, as written (`DPoP`, `Bearer`); compare without regard to case.
    public var scheme: String
    /// The parameters, names lower-cased, quoted strings unescaped.
    public var parameters: [String: String]

    /// Creates a challenge.
    public init(scheme: String, parameters: [String: String] = [:]) {
        self.scheme = scheme
        self.parameters = parameters
    }

    /// Every challenge in `header`, in order. Malformed parts end the parse: what was read before
    /// them is returned. At most 16 challenges and 4 KiB are read.
    public static func parse(_ header: String) -> [WWWAuthenticateChallenge] {
        var scanner = ChallengeScanner(Array(header.utf8.prefix(4096)))
        var challenges: [WWWAuthenticateChallenge] = []
        while challenges.count < 16 {
            scanner.skip(whereIn: " \t,")
            guard let scheme = scanner.token() else { break }
            var challenge = WWWAuthenticateChallenge(scheme: scheme)
            while true {
                let mark = scanner.position
                scanner.skip(whereIn: " \t,")
                guard let name = scanner.token() else { break }
                scanner.skip(whereIn: " \t")
                guard scanner.consume(UInt8(ascii: "=")) else {
                    // A token not followed by `=`: the next challenge's scheme.
                    scanner.position = mark
                    break
                }
                scanner.skip(whereIn: " \t")
                let value: String?
                if scanner.peek == UInt8(ascii: "\"") {
                    value = scanner.quotedString()
                } else {
                    value = scanner.token(allowingEquals: true)
                }
                guard let value else { return challenges + [challenge] }
                challenge.parameters[name.lowercased()] = value
            }
            challenges.append(challenge)
        }
        return challenges
    }

    /// Every challenge of every `WWW-Authenticate` field of `headers`, in order: a server may send
    /// one field per challenge (a `DPoP` one and a `Bearer` one) or list them in one field. At most
    /// 16 challenges are read.
    public static func parse(_ headers: HTTPHeaderFields) -> [WWWAuthenticateChallenge] {
        Array(headers.values(for: "WWW-Authenticate").lazy.flatMap { parse($0) }.prefix(16))
    }

    /// The first `DPoP` challenge's `error`, if any.
    public static func dpopError(in header: String?) -> String? {
        guard let header else { return nil }
        return parse(header).first { $0.scheme.lowercased() == "dpop" }?.parameters["error"]
    }

    /// The `error` of the first `DPoP` challenge in any `WWW-Authenticate` field of `headers`, if any.
    public static func dpopError(in headers: HTTPHeaderFields) -> String? {
        parse(headers).first { $0.scheme.lowercased() == "dpop" }?.parameters["error"]
    }
}

/// Reads tokens and quoted strings from a header value.
private struct ChallengeScanner {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skip(whereIn set: String) {
        let members = Set(set.utf8)
        while let byte = peek, members.contains(byte) { position += 1 }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    /// An RFC 9110 token (and, for token68 values, `=` and `/`).
    mutating func token(allowingEquals: Bool = false) -> String? {
        let start = position
        while let byte = peek, Self.isTokenByte(byte) || (allowingEquals && (byte == 0x3D || byte == 0x2F)) {
            position += 1
        }
        guard position > start else { return nil }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// A quoted string with `\` escapes, or `nil` when it is not closed.
    mutating func quotedString() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        var value: [UInt8] = []
        while let byte = peek {
            position += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: value, as: UTF8.self) }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = peek else { return nil }
                position += 1
                value.append(escaped)
            } else {
                value.append(byte)
            }
        }
        return nil
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
