import AtprotoSyntax

// The two forms of a CID: a lexicon string field (`CIDString`, kept as written) and the parsed value
// (`CID`). Neither converts on its own; these say where an app parses or prints one.

extension CID {
    /// Parses a CID string field, e.g. a `strongRef`'s `cid` or an answer's `commit.cid`.
    ///
    /// - Throws: ``AtprotoBinaryDecodingError`` when the string is not a CID in base32 (CIDv1) or base58
    ///   (CIDv0), as parsing its text throws.
    public init(_ string: CIDString) throws(AtprotoBinaryDecodingError) {
        try self.init(string.rawValue)
    }
}

extension CIDString {
    /// The string form of a parsed CID, as a lexicon field writes it: base32 behind `b` for CIDv1,
    /// base58 `Qm...` for CIDv0.
    public init(_ cid: CID) {
        self.init(rawValue: cid.description)
    }
}
