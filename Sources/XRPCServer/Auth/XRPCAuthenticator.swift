import AtprotoSyntax

/// Decides who is calling: reads a request's credentials and returns the caller a handler gets, or
/// refuses the call.
///
/// ``ServiceAuthVerifier`` is the atproto one (inter-service JWTs); an app may bring its own (an API
/// key, a session cookie). A route registered with an authenticator runs its handler only for
/// requests it accepts, and hands the handler its typed ``Caller``.
public protocol XRPCAuthenticator: Sendable {
    /// What a handler learns about an accepted caller.
    associatedtype Caller: Sendable

    /// The caller of `request`, which calls the method `nsid`.
    ///
    /// - Throws: ``XRPCServerError`` to refuse the call (401 `AuthenticationRequired` when there
    ///   are no credentials, 401 with the reason when they do not hold).
    func authenticate(_ request: XRPCServerRequest, for nsid: NSID) async throws(XRPCServerError) -> Caller
}

extension XRPCAuthenticator {
    /// The same check, but a request without an `Authorization` header passes with a `nil` caller
    /// (credentials that are sent must still hold): for methods whose auth is optional, such as
    /// `getFeedSkeleton`.
    public var optional: XRPCOptionalAuthenticator<Self> { XRPCOptionalAuthenticator(self) }
}

/// An authenticator that lets calls without credentials through with a `nil` caller; see
/// ``XRPCAuthenticator/optional``.
public struct XRPCOptionalAuthenticator<Wrapped: XRPCAuthenticator>: XRPCAuthenticator {
    /// The authenticator that checks credentials when there are some.
    public let wrapped: Wrapped

    /// Wraps an authenticator.
    public init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    /// `nil` without an `Authorization` header; otherwise the wrapped authenticator's answer.
    public func authenticate(_ request: XRPCServerRequest, for nsid: NSID) async throws(XRPCServerError)
        -> Wrapped.Caller?
    {
        guard request.header("authorization") != nil else { return nil }
        return try await wrapped.authenticate(request, for: nsid)
    }
}

/// The authenticator of routes registered without one: every call passes, with no caller.
public struct XRPCNoAuthenticator: XRPCAuthenticator {
    /// Lets every call through.
    public init() {}

    /// Returns at once.
    public func authenticate(_ request: XRPCServerRequest, for nsid: NSID) async throws(XRPCServerError) {}
}
