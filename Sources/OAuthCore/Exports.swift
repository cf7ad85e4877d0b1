// Every OAuth request goes through an `HTTPTransport` (an app's own, or `URLSessionTransport`), so
// `import OAuthCore` can name the transport its public signatures take.
@_exported import HTTPTransport
