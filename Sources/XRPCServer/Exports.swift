// What XRPCServer's own public signatures take and give (generated endpoint types and the XRPC
// model, the identity resolver and public keys of service auth), so `import XRPCServer` is the one
// import a service needs.
@_exported import AtprotoIdentityResolution
