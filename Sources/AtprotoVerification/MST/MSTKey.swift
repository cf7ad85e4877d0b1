import SHA2
import XRPCRuntime

/// The layer of the Merkle Search Tree a key sits on: the number of leading zero bit pairs of the
/// SHA-256 of the key (fanout 4).
public enum MSTKey {
    /// The longest key accepted, in bytes (a repository path `collection/rkey` is far shorter).
    public static let maximumLength = 1024

    /// The height of `key`.
    public static func height(of key: some Collection<UInt8>) -> Int {
        // Leading zero bit pairs: a zero byte counts 4, as the definition does byte by byte.
        SHA256.leadingZeroBitCount(of: key) / 2
    }

    /// The length of the common prefix of two keys, in bytes.
    public static func commonPrefixLength(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Int {
        var count = 0
        for (a, b) in zip(left, right) {
            guard a == b else { break }
            count += 1
        }
        return count
    }

    /// Whether `key` is a valid repository path: `<collection NSID>/<record key>`, in ASCII, within the
    /// length limit.
    static func isRepositoryPath(_ key: [UInt8]) -> Bool {
        guard !key.isEmpty, key.count <= maximumLength, let slash = key.firstIndex(of: UInt8(ascii: "/")),
            slash > 0, slash < key.count - 1, key[(slash + 1)...].firstIndex(of: UInt8(ascii: "/")) == nil
        else { return false }
        return key.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
