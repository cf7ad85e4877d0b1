// What AtprotoBackfill's public signatures take and give (the firehose client and the generated
// subscribeRepos types, the identity resolver, verified repositories, decoded records), so
// `import AtprotoBackfill` is the one import it needs.
@_exported import AtprotoLexicons
@_exported import AtprotoVerification
