// What AtprotoVerification's own public signatures take and give (the identity resolver, public keys,
// CIDs and CAR data, the XRPC client, the repository's decoded records), so `import AtprotoVerification` is the one import it needs.
@_exported import AtprotoIdentityResolution
@_exported import AtprotoRepository
