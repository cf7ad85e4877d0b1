// What XRPCHummingbird's own public signatures take (the router, its requests and responses), so
// `import XRPCHummingbird` is the one import a service served over HTTP needs. Re-exported with the
// trait off too: the module is then empty but still names what a server is built from.
@_exported import XRPCServer
