import Foundation
import XRPCTesting

@testable import AtprotoData
@testable import XRPCCore

// @unchecked Sendable: tokens and counts are under `lock`; the test sets the other `var`s between calls.
/// An in-memory PDS for session tests: accounts, single-use refresh tokens, expiry on demand, and
/// a count of every request by NSID. Tokens contain ``FakePDS/marker`` so tests can look for leaks.
final class FakePDS: @unchecked Sendable {
    static let marker = "SECRETTOKENMARKER"
    static let service = URL(string: "https://entryway.test")
    static let pds = URL(string: "https://pds.test")

    let did = "did:plc:alice"
    var handle = "alice.test"
    var password = "hunter2"
    /// The two-factor code the account needs, or `nil` for none.
    var authFactorToken: String?
    /// How long refreshSession takes, so concurrent callers pile up behind it.
    var refreshDelay: Duration = .zero
    /// A status refreshSession answers with instead of working (e.g. 500), or `nil`.
    var refreshFailure: Int?

    private let lock = NSLock()
    private var accessTokens: Set<String> = []
    private var refreshTokens: Set<String> = []
    private var issued = 0
    private var counts: [String: Int] = [:]
    private var seen: [XRPCRequest] = []

    lazy var agent = StubAgent { [unowned self] request in try await self.answer(request) }

    /// Requests by NSID so far.
    func count(_ nsid: String) -> Int { lock.withLock { counts[nsid, default: 0] } }
    /// Every request so far.
    var total: Int { lock.withLock { counts.values.reduce(0, +) } }
    /// Every request so far, in order.
    var requests: [XRPCRequest] { lock.withLock { seen } }

    /// Makes every access token expired.
    func expireAccessTokens() { lock.withLock { accessTokens.removeAll() } }
    /// Makes every refresh token dead.
    func expireRefreshTokens() { lock.withLock { refreshTokens.removeAll() } }

    func locked<T>(_ body: () -> T) -> T { lock.withLock(body) }

    private func issue() -> (access: String, refresh: String) {
        lock.withLock {
            issued += 1
            let pair = ("eyJ.access\(issued).\(Self.marker)", "eyJ.refresh\(issued).\(Self.marker)")
            accessTokens.insert(pair.0)
            refreshTokens.insert(pair.1)
            return pair
        }
    }

    private func sessionJSON(_ tokens: (access: String, refresh: String)?) -> XRPCResponse {
        var fields: [String: JSONValue] = [
            "did": .string(did), "handle": .string(handle), "active": .bool(true),
            "email": .string("alice@example.com"),
            "didDoc": .object([
                "id": .string(did),
                "service": .array([
                    .object([
                        "id": .string("#atproto_pds"), "type": .string("AtprotoPersonalDataServer"),
                        "serviceEndpoint": .string(Self.pds?.absoluteString ?? ""),
                    ])
                ]),
            ]),
        ]
        if let tokens {
            fields["accessJwt"] = .string(tokens.access)
            fields["refreshJwt"] = .string(tokens.refresh)
        }
        return Self.json(200, .object(fields))
    }

    static func json(_ status: Int, _ value: JSONValue) -> XRPCResponse {
        XRPCResponse(status: status, headers: ["Content-Type": "application/json"], body: value.serialized())
    }

    static func error(_ status: Int, _ name: String, _ message: String) -> XRPCResponse {
        json(status, .object(["error": .string(name), "message": .string(message)]))
    }

    private func bearer(_ request: XRPCRequest) -> String? {
        guard let value = request.header("Authorization"), value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst(7))
    }

    private func answer(_ request: XRPCRequest) async throws -> XRPCResponse {
        lock.withLock {
            counts[request.nsid.rawValue, default: 0] += 1
            seen.append(request)
        }
        switch request.nsid {
        case "com.atproto.server.createSession":
            let input = try JSONValue.parse(request.body ?? Data()).objectValue ?? [:]
            guard input["identifier"]?.stringValue == handle, input["password"]?.stringValue == password else {
                return Self.error(401, "AuthenticationRequired", "Invalid identifier or password")
            }
            if let code = authFactorToken, input["authFactorToken"]?.stringValue != code {
                return Self.error(401, "AuthFactorTokenRequired", "A sign in code has been sent to your email address")
            }
            return sessionJSON(issue())
        case "com.atproto.server.refreshSession":
            if refreshDelay > .zero { try await Task.sleep(for: refreshDelay) }
            if let refreshFailure { return Self.error(refreshFailure, "InternalServerError", "try later") }
            let valid = lock.withLock { bearer(request).map { refreshTokens.remove($0) != nil } ?? false }
            guard valid else { return Self.error(400, "ExpiredToken", "Token has been revoked") }
            return sessionJSON(issue())
        case "com.atproto.server.deleteSession":
            _ = lock.withLock { bearer(request).map { refreshTokens.remove($0) } }
            return Self.json(200, .string(""))
        default:
            guard let token = bearer(request) else {
                return Self.error(401, "AuthenticationRequired", "Authentication Required")
            }
            guard lock.withLock({ accessTokens.contains(token) }) else {
                return Self.error(400, "ExpiredToken", "Token has expired")
            }
            return request.nsid == "com.atproto.server.getSession"
                ? sessionJSON(nil) : Self.json(200, .object(["ok": .bool(true)]))
        }
    }
}
