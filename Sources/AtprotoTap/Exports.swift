// What AtprotoTap's public signatures take and give (transports, the reconnect policy, the record
// types and the generated records they decode into), re-exported so that `import AtprotoTap` is enough.
@_exported import AtprotoLexicons
