// The URLSession agent sends through an `HTTPTransport` (an app's own, or `URLSessionTransport`), so a
// module that imports the agents can name the transport its public signatures take.
@_exported import HTTPTransport
