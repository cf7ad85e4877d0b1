// What BlueskyKit's own public signatures take and give (the generated SDK's types, the XRPC client,
// the handle resolver of mention detection), so `import BlueskyKit` is the one import an app needs.
@_exported import AtprotoIdentityResolution
@_exported import AtprotoLexicons
