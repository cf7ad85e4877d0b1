// A transport's upgrade headers are `HTTPHeaderFields`: whoever implements or calls one gets the type
// with this module.
@_exported import HTTPMessages
