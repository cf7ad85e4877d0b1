// What AtprotoOAuth's own public signatures take and give (the key factory and signer protocols of
// OAuthCore, the identity resolver, the XRPC agent and client), so `import AtprotoOAuth` is the one
// import an app needs to sign a user in and call through the session.
@_exported import AtprotoIdentityResolution
@_exported import HTTPTransport
@_exported import OAuthCore
@_exported import XRPCAgents
@_exported import XRPCCore
