// SHA-256 lives in the dependency-free SHA2 module, shared with OAuthCore (PKCE, DPoP, thumbprints);
// re-exported so `SHA256.hash` keeps working for everyone who imports XRPCRuntime.
@_exported import SHA2
