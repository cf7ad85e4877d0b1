// What AtprotoLexiconResolution's own public signatures take and give (the identity resolver, the
// proved records of verification, NSIDs and DIDs), so `import AtprotoLexiconResolution` is the one
// import it needs.
@_exported import AtprotoVerification
