// Where values lie in JSON text already checked to be valid: a member of the top-level object, the
// elements of an array. Lets preference items be kept as the bytes they were read as.

import XRPCRuntime

enum JSONSpans {
    /// The span of the value of the top-level object's member `key` (keys compared unescaped).
    static func member(_ key: String, ofObjectIn bytes: [UInt8]) -> Range<Int>? {
        var index = 0
        skipSpace(bytes, &index)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            skipSpace(bytes, &index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let keyStart = index
            skipString(bytes, &index)
            let name = try? JSONValue.parse(bytes[keyStart..<index])
            skipSpace(bytes, &index)
            index += 1  // the colon
            skipSpace(bytes, &index)
            let valueStart = index
            skipValue(bytes, &index)
            if name == .string(key) { return valueStart..<index }
            skipSpace(bytes, &index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
        }
    }

    /// The spans of the elements of the array at `span`.
    static func elements(ofArrayIn bytes: [UInt8], span: Range<Int>) -> [Range<Int>] {
        var index = span.lowerBound
        guard index < span.upperBound, bytes[index] == UInt8(ascii: "[") else { return [] }
        index += 1
        var result: [Range<Int>] = []
        while index < span.upperBound {
            skipSpace(bytes, &index)
            guard index < span.upperBound, bytes[index] != UInt8(ascii: "]") else { break }
            let start = index
            skipValue(bytes, &index)
            result.append(start..<index)
            skipSpace(bytes, &index)
            if index < span.upperBound, bytes[index] == UInt8(ascii: ",") { index += 1 }
        }
        return result
    }

    private static func skipSpace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// From an opening quote to just after its closing quote.
    private static func skipString(_ bytes: [UInt8], _ index: inout Int) {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return
            default: index += 1
            }
        }
    }

    /// Past one value of any kind.
    private static func skipValue(_ bytes: [UInt8], _ index: inout Int) {
        guard index < bytes.count else { return }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            skipString(bytes, &index)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    skipString(bytes, &index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                index += 1
                if depth == 0 { return }
            }
        default:
            while index < bytes.count, !",}] \t\r\n".utf8.contains(bytes[index]) { index += 1 }
        }
    }
}
