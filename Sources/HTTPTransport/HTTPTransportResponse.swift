@_exported import HTTPMessages

/// The answer to an ``HTTPTransportRequest``, whatever its status: the package's one HTTP response,
/// its header fields in order with repeated names kept (two `WWW-Authenticate` fields are two).
/// The body holds at most the request's ``HTTPTransportRequest/maximumResponseSize`` bytes.
public typealias HTTPTransportResponse = HTTPResponseMessage
