/// The code of a package error: an open set of names, one `static let` per known case.
///
/// Every error type of the package nests a `Code` conforming to this protocol (see docs/Errors.md).
/// A conforming type declares only its storage and its cases:
///
/// ```swift
/// public struct Code: AtprotoErrorCode {
///     public let rawValue: String
///     public init(rawValue: String) { self.rawValue = rawValue }
///
///     public static let timedOut: Code = "timedOut"
/// }
/// ```
///
/// The set is open: a new case is not a breaking change, so a `switch` over a code needs a
/// `default`. Match with `==` or `case .timedOut`.
public protocol AtprotoErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible,
    ExpressibleByStringLiteral
where RawValue == String {
    /// Wraps a code's name.
    init(rawValue: String)
}

extension AtprotoErrorCode {
    /// The code's name.
    public var description: String { rawValue }

    /// The code of that name.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
}

/// A package error: a ``code`` to act on and a ``message`` for people, whatever its module.
///
/// Every error struct of the package conforms, so an app can log any of them the same way:
///
/// ```swift
/// func log(_ error: any Error) {
///     if let error = error as? any AtprotoError {
///         print("[\(error.code.rawValue)] \(error.message)")
///     }
/// }
/// ```
public protocol AtprotoError: Error, Sendable, CustomStringConvertible {
    /// The type of ``code``.
    associatedtype Code: AtprotoErrorCode
    /// What kind of failure: an open set.
    var code: Code { get }
    /// What went wrong and where, for people to read.
    var message: String { get }
}

extension AtprotoError {
    /// The code and the message, for an error type with nothing more to show.
    public var description: String { "\(code): \(message)" }
}
