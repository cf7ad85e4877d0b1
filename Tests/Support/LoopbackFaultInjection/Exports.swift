// Fault injection for the load tests (seeded faults a loopback server applies, the session figures a
// fault server counts, many calls run at once): test support, not part of any product. Re-exports
// the loopback server the faults are applied to.
@_exported import LoopbackHTTPServer
