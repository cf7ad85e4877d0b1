// What AtprotoRepository's own public signatures take and give (records, NSIDs, CIDs), re-exported so
// a module that uses its types needs no other import.
@_exported import XRPCCore
