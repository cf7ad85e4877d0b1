import Foundation

/// The query string of a request read into name-value pairs: the inverse of how `XRPCRequest` writes
/// them (every byte outside the unreserved set percent-encoded), and lenient as browsers are (`+` is a
/// space, unencoded bytes pass through).
enum QueryString {
    /// The pairs in order; a name without `=` has an empty value, empty pieces (`a=1&&b=2`) are skipped.
    ///
    /// - Throws: `InvalidRequest` for a `%` not followed by two hex digits or bytes that are not UTF-8,
    ///   naming the parameter, and for more than `maximumItems` pairs.
    static func parse(_ query: String, maximumItems: Int) throws(XRPCServerError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        // Split on the bytes `&` and `=`, not on characters: reading the query as characters (grapheme
        // breaking) was most of the cost of a request's parameters. One pass over the bytes, without
        // the array of pieces a generic `split` builds.
        let utf8 = query.utf8
        var start = utf8.startIndex
        while start != utf8.endIndex {
            var end = start
            var equals: String.Index?
            while end != utf8.endIndex, utf8[end] != UInt8(ascii: "&") {
                if equals == nil, utf8[end] == UInt8(ascii: "=") { equals = end }
                end = utf8.index(after: end)
            }
            defer { start = end == utf8.endIndex ? end : utf8.index(after: end) }
            guard start != end else { continue }
            guard pairs.count < maximumItems else {
                throw XRPCServerError(.invalidRequest, message: "the query has more than \(maximumItems) parameters")
            }
            let name: Substring
            let value: Substring
            if let equals {
                name = query[start..<equals]
                value = query[utf8.index(after: equals)..<end]
            } else {
                name = query[start..<end]
                value = ""
            }
            let decodedName = try decode(name, what: "a parameter name")
            let decodedValue = try decode(value, what: "the value of parameter \"\(decodedName)\"")
            pairs.append((decodedName, decodedValue))
        }
        return pairs
    }

    /// `what` names the text in an error message; it is only built for one.
    private static func decode(_ text: Substring, what: @autoclosure () -> String) throws(XRPCServerError) -> String {
        let utf8 = text.utf8
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex, utf8.index(after: first) != utf8.endIndex,
                    let high = hexValue(utf8[first]), let low = hexValue(utf8[utf8.index(after: first)])
                else {
                    throw XRPCServerError(
                        .invalidRequest, message: "\(what()) has a \"%\" not followed by two hex digits")
                }
                bytes.append(high << 4 | low)
                index = utf8.index(after: utf8.index(after: first))
                continue
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw XRPCServerError(.invalidRequest, message: "\(what()) is not UTF-8 once percent-decoded")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
