import AtprotoSyntax

/// The authority of an NSID as atproto lexicon resolution sees it: every segment but the name,
/// reversed into a domain (`app.bsky.feed.post` -> `feed.bsky.app`), whose `_lexicon` TXT record names
/// the DID that publishes the authority's lexicons. Resolution is not hierarchical: `_lexicon.bsky.app`
/// says nothing about `app.bsky.feed.*`.
public struct LexiconAuthority: Sendable, Hashable, CustomStringConvertible {
    /// The authority as a domain name, lower case: `feed.bsky.app`.
    public let domain: String

    /// The authority of `nsid`, or of a pattern's prefix (`app.bsky.feed.*` -> `feed.bsky.app`).
    ///
    /// - Throws: ``LexiconResolutionError`` (`invalidNSID`) when `nsid` is not a valid NSID or pattern.
    public init(of nsid: String) throws(LexiconResolutionError) {
        let name: String
        if nsid.hasSuffix(".*") {
            name = String(nsid.dropLast(2)) + ".x"
        } else {
            name = nsid
        }
        guard NSID(rawValue: name).isValid else {
            throw LexiconResolutionError(.invalidNSID, nsid: nsid, message: "not a valid NSID (or NSID.* pattern)")
        }
        let segments = name.lowercased().split(separator: ".").dropLast()
        domain = segments.reversed().joined(separator: ".")
    }

    /// The DNS name whose TXT record names the authority's DID: `_lexicon.feed.bsky.app`.
    public var dnsName: String { "_lexicon." + domain }

    public var description: String { domain }
}
