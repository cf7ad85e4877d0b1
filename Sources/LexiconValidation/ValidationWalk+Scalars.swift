import AtprotoData
import AtprotoSyntax
import Foundation

/// The checks of values that hold no other lexicon values: strings, numbers, bytes, links, blobs.
extension ValidationWalk {
    mutating func checkString(_ value: JSONValue, schema: [String: JSONValue]) {
        guard case .string(let string) = value else {
            report(.type, "expected a string, found \(value.kindName)")
            return
        }
        checkConstAndEnum(value, schema: schema, shown: "\"\(string)\"")
        checkLength(string.utf8.count, schema: schema, unit: "UTF-8 bytes")
        if schema["minGraphemes"] != nil || schema["maxGraphemes"] != nil {
            let graphemes = string.count
            if let minimum = schema["minGraphemes"]?.integerValue, graphemes < minimum {
                report(.minGraphemes, "\(graphemes) graphemes, fewer than the minimum \(minimum)")
            }
            if let maximum = schema["maxGraphemes"]?.integerValue, graphemes > maximum {
                report(.maxGraphemes, "\(graphemes) graphemes, more than the maximum \(maximum)")
            }
        }
        if let format = schema["format"]?.stringValue, let problem = Self.formatProblem(format, string) {
            report(.format, "not a valid \(format): \(problem)")
        }
    }

    mutating func checkInteger(_ value: JSONValue, schema: [String: JSONValue]) {
        guard let integer = value.integerValue else {
            report(.type, "expected an integer, found \(value.kindName)")
            return
        }
        checkConstAndEnum(.integer(integer), schema: schema, shown: String(integer))
        if let minimum = schema["minimum"]?.integerValue, integer < minimum {
            report(.minimum, "\(integer) is below the minimum \(minimum)")
        }
        if let maximum = schema["maximum"]?.integerValue, integer > maximum {
            report(.maximum, "\(integer) is above the maximum \(maximum)")
        }
    }

    mutating func checkBoolean(_ value: JSONValue, schema: [String: JSONValue]) {
        guard case .bool(let flag) = value else {
            report(.type, "expected a boolean, found \(value.kindName)")
            return
        }
        checkConstAndEnum(value, schema: schema, shown: String(flag))
    }

    /// `shown` is how a violation names the value, written only for a violation.
    mutating func checkConstAndEnum(
        _ value: JSONValue, schema: [String: JSONValue], shown: @autoclosure () -> String
    ) {
        if let constant = schema["const"], constant != value,
            !(constant.integerValue.map { .integer($0) == value } ?? false)
        {
            report(.const, "\(shown()) is not the constant \(constant.serializedString())")
        }
        if case .array(let allowed)? = schema["enum"], !allowed.contains(value) {
            let list = allowed.map { $0.serializedString() }.joined(separator: ", ")
            report(.enum, "\(shown()) is not one of the allowed values: \(list)")
        }
    }

    /// `minLength` and `maxLength` for a count of `unit`s (bytes of a string, bytes, array items).
    mutating func checkLength(_ count: Int, schema: [String: JSONValue], unit: String) {
        if let minimum = schema["minLength"]?.integerValue, count < minimum {
            report(.minLength, "\(count) \(unit), fewer than the minimum length \(minimum)")
        }
        if let maximum = schema["maxLength"]?.integerValue, count > maximum {
            report(.maxLength, "\(count) \(unit), more than the maximum length \(maximum)")
        }
    }

    mutating func checkBytes(_ value: JSONValue, schema: [String: JSONValue]) {
        guard let fields = value.objectValue, fields.count == 1, let text = fields["$bytes"]?.stringValue else {
            report(.type, "expected bytes ({\"$bytes\": base64}), found \(Self.describe(value))")
            return
        }
        guard let data = AtprotoDataModel.decodeBase64(text) else {
            report(.type, "\"$bytes\" is not base64")
            return
        }
        checkLength(data.count, schema: schema, unit: "bytes")
    }

    mutating func checkLink(_ value: JSONValue) {
        guard let fields = value.objectValue, fields.count == 1, let cid = fields["$link"]?.stringValue else {
            report(.type, "expected a cid-link ({\"$link\": cid}), found \(Self.describe(value))")
            return
        }
        if !AtprotoDataModel.isValidLinkCID(cid) { report(.type, "\"$link\" is not a valid CID: \"\(cid)\"") }
    }

    mutating func checkBlob(_ value: JSONValue, schema: [String: JSONValue]) {
        guard let fields = value.objectValue else {
            report(.type, "expected a blob object, found \(value.kindName)")
            return
        }
        let mimeType: String
        var size: Int?
        if fields["$type"] == .string("blob") {
            guard let type = fields["mimeType"]?.stringValue, let bytes = fields["size"]?.integerValue, bytes >= 0,
                fields["ref"].map(Self.isLink) == true
            else {
                report(.type, "a blob needs \"ref\" (a cid-link), \"mimeType\" (a string) and \"size\" (an integer)")
                return
            }
            mimeType = type
            size = bytes
        } else if let type = fields["mimeType"]?.stringValue, fields["cid"]?.stringValue != nil {
            mimeType = type  // The legacy form has no size.
        } else {
            report(.type, "expected a blob ({\"$type\": \"blob\", ...}), found \(Self.describe(value))")
            return
        }
        if let maximum = schema["maxSize"]?.integerValue, let size, size > maximum {
            report(.maxSize, "blob of \(size) bytes is larger than the maximum \(maximum)")
        }
        if let accept = schema["accept"]?.stringArray, !accept.contains(where: { Self.mimeType(mimeType, matches: $0) })
        {
            report(.accept, "MIME type \"\(mimeType)\" is not accepted: \(accept.joined(separator: ", "))")
        }
    }

    mutating func checkUnknown(_ value: JSONValue) {
        guard let fields = value.objectValue else {
            report(.type, "an unknown value must be an object, found \(value.kindName)")
            return
        }
        if fields["$bytes"] != nil || fields["$link"] != nil || fields["$type"] == .string("blob") {
            report(.type, "an unknown value must be a plain object, found \(Self.describe(value))")
            return
        }
        checkDataModel(value)
    }

    mutating func checkDataModel(_ value: JSONValue) {
        do {
            try AtprotoDataModel.validateValue(value)
        } catch {
            report(.dataModel, "not a data-model value: \(error)")
        }
    }

    static func mimeType(_ type: String, matches pattern: String) -> Bool {
        let type = type.lowercased()
        let pattern = pattern.lowercased()
        if pattern == "*/*" || pattern == "*" { return true }
        if pattern.hasSuffix("/*") { return type.hasPrefix(pattern.dropLast()) }
        return type == pattern
    }

    private static func isLink(_ value: JSONValue) -> Bool {
        guard let fields = value.objectValue, fields.count == 1, let cid = fields["$link"]?.stringValue else {
            return false
        }
        return AtprotoDataModel.isValidLinkCID(cid)
    }

    private static func describe(_ value: JSONValue) -> String {
        guard let fields = value.objectValue else { return value.kindName }
        if fields.isEmpty { return "an empty object" }
        return "an object with " + fields.keys.sorted().prefix(4).map { "\"\($0)\"" }.joined(separator: ", ")
    }

    static func formatProblem(_ format: String, _ string: String) -> String? {
        switch format {
        case "did": return DID.syntaxError(in: string)
        case "handle": return ATHandle.syntaxError(in: string)
        case "nsid": return NSID.syntaxError(in: string)
        case "at-uri": return ATURI.syntaxError(in: string)
        case "at-identifier": return ATIdentifier.syntaxError(in: string)
        case "tid": return TID.syntaxError(in: string)
        case "record-key": return RecordKey.syntaxError(in: string)
        case "datetime": return LexiconDatetime.syntaxError(in: string)
        case "cid": return CIDString.syntaxError(in: string)
        case "language": return LexiconLanguageTag.syntaxError(in: string)
        case "uri": return URIString.syntaxError(in: string)
        default: return nil  // A format this runtime does not know is not checked (the spec allows new ones).
        }
    }
}

extension JSONValue {
    /// An integer, also from a number written with a fraction or exponent whose value is whole and
    /// below 2^53 (`123.0`), as the data model reads it. `nil` otherwise.
    var integerValue: Int? {
        switch self {
        case .integer(let integer): return integer
        case .number(let number):
            guard number.rounded() == number, abs(number) < 9_007_199_254_740_992 else { return nil }
            return Int(number)
        default: return nil
        }
    }
}
