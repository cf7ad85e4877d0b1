/// Looks up DNS TXT records.
///
/// Handle resolution asks for `_atproto.<handle>` (a record `did=...`) and lexicon resolution for
/// `_lexicon.<authority>`. This package asks nameservers over UDP (the system's, or those given to a
/// resolver's `nameservers:` initializer); tests and apps with their own resolver conform a type of
/// their own.
public protocol DNSTXTLookup: Sendable {
    /// The TXT records of `name`, each record's character-strings joined into one String (RFC 7208 style);
    /// an empty array when the name does not exist (NXDOMAIN) or has no TXT records.
    ///
    /// Throws ``DNSError`` when no answer could be had (timeout on every server, SERVFAIL/REFUSED,
    /// malformed answer) and `CancellationError` when the task is cancelled.
    func txtRecords(for name: String) async throws -> [String]
}
