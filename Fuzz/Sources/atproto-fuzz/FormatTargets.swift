import Foundation
import FuzzDriver
import XRPCRuntime

/// The lexicon string formats, each checked and, when valid, taken apart.
let formatTargets: [FuzzTarget] = [
    FuzzTarget("formats", "syntaxError of every string format; the parts of valid values") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        _ = DID.syntaxError(in: text)
        _ = ATHandle.syntaxError(in: text)
        _ = NSID.syntaxError(in: text)
        _ = ATURI.syntaxError(in: text)
        _ = ATIdentifier.syntaxError(in: text)
        _ = TID.syntaxError(in: text)
        _ = RecordKey.syntaxError(in: text)
        _ = LexiconDatetime.syntaxError(in: text)
        _ = CIDString.syntaxError(in: text)
        _ = LexiconLanguageTag.syntaxError(in: text)
        _ = URIString.syntaxError(in: text)
        _ = try? CID(text)
        _ = DID(rawValue: text).method
        _ = DID(rawValue: text).methodSpecificIdentifier
        _ = ATHandle(rawValue: text).normalized
        _ = NSID(rawValue: text).name
        _ = NSID(rawValue: text).authority
        let uri = ATURI(rawValue: text)
        _ = (uri.authority, uri.collection, uri.rkey)
        _ = TID(rawValue: text).timestamp
        _ = TID(rawValue: text).date
        _ = LexiconDatetime(rawValue: text).date
        _ = ATIdentifier(rawValue: text).did
    }
]
