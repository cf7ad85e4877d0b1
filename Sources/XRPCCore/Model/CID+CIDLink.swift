import AtprotoData

extension CID {
    /// Parses the CID of a lexicon `cid-link` value.
    public init(_ link: CIDLink) throws(AtprotoBinaryDecodingError) {
        try self.init(link.cid)
    }

    /// The CID as a lexicon `cid-link` value, `{"$link": "<cid>"}`.
    public var link: CIDLink { CIDLink(string) }
}
