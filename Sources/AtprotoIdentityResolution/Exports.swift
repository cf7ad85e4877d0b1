// What AtprotoIdentityResolution's own public signatures take and give (identifiers and data, public
// keys, the XRPC agent and the password session it logs in by handle), so one import serves identity.
@_exported import AtprotoCrypto
@_exported import AtprotoData
@_exported import AtprotoSyntax
@_exported import HTTPTransport
@_exported import XRPCAgents
@_exported import XRPCCore
