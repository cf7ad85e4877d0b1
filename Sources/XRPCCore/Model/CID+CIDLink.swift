import AtprotoData

extension CID {
    /// Parses the CID of a lexicon `cid-link` value.
    public init(_ link: CIDLink) throws(AtprotoBinaryDecodingError) {
        guard case .binary(let cid) = link.form else {
            try self.init(link.cid)
            return
        }
        self = cid
    }

    /// The CID as a lexicon `cid-link` value, `{"$link": "<cid>"}`.
    public var link: CIDLink { CIDLink(form: .binary(self)) }
}
