import Foundation

extension MSTNode {
    /// The index of the first entry whose key is not before `key` (the count when there is none),
    /// by binary search: a node's keys are in order (checked when it was read, kept so when changed).
    func lowerBound(_ key: [UInt8]) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if MSTKey.compare(entries[middle].key, key) < 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The index of the first entry whose key is after `key` (the count when there is none).
    func upperBound(_ key: [UInt8]) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if MSTKey.compare(entries[middle].key, key) <= 0 { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension MSTKey {
    /// Bytewise order of two keys: negative, zero or positive.
    static func compare(_ left: [UInt8], _ right: [UInt8]) -> Int {
        let common = min(left.count, right.count)
        let order = left.withUnsafeBytes { l in
            right.withUnsafeBytes { r in
                guard common > 0, let a = l.baseAddress, let b = r.baseAddress else { return Int32(0) }
                return memcmp(a, b, common)
            }
        }
        return order != 0 ? Int(order) : left.count - right.count
    }
}
