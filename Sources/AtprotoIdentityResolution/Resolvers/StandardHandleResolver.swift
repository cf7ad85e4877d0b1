import AtprotoSyntax
import Foundation

/// Resolves handles the way atproto publishes them: DNS TXT and HTTPS well-known, by a policy.
public struct StandardHandleResolver: HandleResolver {
    /// How the two methods combine.
    public enum Policy: Sendable, Hashable {
        /// Both at once; the first valid answer wins (the default).
        case race
        /// DNS, then HTTPS when DNS finds nothing or fails.
        case dnsFirst
        /// HTTPS, then DNS when HTTPS finds nothing or fails.
        case httpsFirst
        /// Both must answer, with the same DID.
        case requireBoth
    }

    /// The DNS method, or `nil` to use HTTPS only.
    public var dns: DNSHandleResolver?
    /// The HTTPS method, or `nil` to use DNS only.
    public var wellKnown: WellKnownHandleResolver?
    /// How the two combine.
    public var policy: Policy

    /// Creates a resolver from its methods.
    public init(dns: DNSHandleResolver?, wellKnown: WellKnownHandleResolver?, policy: Policy = .race) {
        self.dns = dns
        self.wellKnown = wellKnown
        self.policy = policy
    }

    /// Resolves `handle`; see ``HandleResolver/resolveHandle(_:)``.
    public func resolveHandle(_ handle: ATHandle) async throws(IdentityError) -> DID {
        if let problem = ATHandle.syntaxError(in: handle.rawValue) {
            throw IdentityError(.invalidIdentifier, identifier: handle.rawValue, message: "not a handle: \(problem)")
        }
        var methods: [any HandleResolver] = []
        if let dns { methods.append(dns) }
        if let wellKnown { methods.append(wellKnown) }
        guard let first = methods.first else {
            throw IdentityError(
                .handleNotFound, identifier: handle.rawValue, message: "no handle resolution method is set")
        }
        guard methods.count == 2 else { return try await first.resolveHandle(handle) }
        switch policy {
        case .race: return try await race(handle, methods)
        case .dnsFirst: return try await inTurn(handle, methods)
        case .httpsFirst: return try await inTurn(handle, methods.reversed())
        case .requireBoth: return try await both(handle, methods)
        }
    }

    private func race(_ handle: ATHandle, _ methods: [any HandleResolver]) async throws(IdentityError) -> DID {
        let outcome = await withTaskGroup(of: Result<DID, IdentityError>.self) {
            group -> (did: DID?, errors: [IdentityError]) in
            for method in methods {
                group.addTask {
                    do throws(IdentityError) { return .success(try await method.resolveHandle(handle)) } catch {
                        return .failure(error)
                    }
                }
            }
            var errors: [IdentityError] = []
            for await result in group {
                switch result {
                case .success(let did):
                    group.cancelAll()
                    return (did, errors)
                case .failure(let error): errors.append(error)
                }
            }
            return (nil, errors)
        }
        if let did = outcome.did { return did }
        throw Self.combined(outcome.errors, handle: handle)
    }

    private func inTurn(_ handle: ATHandle, _ methods: [any HandleResolver]) async throws(IdentityError) -> DID {
        var errors: [IdentityError] = []
        for method in methods {
            do {
                return try await method.resolveHandle(handle)
            } catch {
                if error.code == .cancelled { throw error }
                errors.append(error)
            }
        }
        throw Self.combined(errors, handle: handle)
    }

    private func both(_ handle: ATHandle, _ methods: [any HandleResolver]) async throws(IdentityError) -> DID {
        var dids: [DID] = []
        for method in methods { dids.append(try await method.resolveHandle(handle)) }
        guard Set(dids).count == 1, let did = dids.first else {
            throw IdentityError(
                .handleConflict, identifier: handle.rawValue,
                message: "DNS and HTTPS name different DIDs: \(dids.map(\.rawValue).joined(separator: ", "))")
        }
        return did
    }

    /// One error for all methods: the most telling kind (anything before "not found"), every message.
    ///
    /// DNS finding no `did=` record while the handle's host does not resolve over HTTPS is
    /// ``IdentityError/Code/handleNotFound``: the nameserver answered, so the unknown host is a name that
    /// does not exist, not a network fault, and the answer is cached like any not-found one. A timeout or
    /// an unreachable server on either side wins over both, and is not cached.
    static func combined(_ errors: [IdentityError], handle: ATHandle) -> IdentityError {
        let order: [IdentityError.Code] = [
            .cancelled, .handleConflict, .malformedAnswer, .redirected, .answerTooLarge, .unexpectedStatus,
            .timedOut, .unreachable, .handleNotFound, .hostNotFound,
        ]
        let kind = order.first { kind in errors.contains { $0.code == kind } } ?? errors.first?.code ?? .handleNotFound
        return IdentityError(kind, identifier: handle.rawValue, message: errors.map(\.message).joined(separator: "; "))
    }
}
