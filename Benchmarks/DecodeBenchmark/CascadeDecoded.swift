import AtprotoLexicons
import Foundation

/// The page read through `Codable` the way `JSONValue` did before it guessed kinds by frequency:
/// null, boolean, integer, number, string, array, object, each wrong guess a thrown error. Kept
/// to show what the reordering saves.
struct CascadeDecoded: Decodable {
    var output: AppBskyFeedGetTimeline.Output

    init(from decoder: any Decoder) throws {
        output = try AppBskyFeedGetTimeline.Output(lexiconJSON: CascadeJSON(from: decoder).value)
    }
}

/// A `JSONValue` read with the old cascade.
struct CascadeJSON: Decodable {
    var value: JSONValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            value = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .number(number)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let elements = try? container.decode([CascadeJSON].self) {
            value = .array(elements.map(\.value))
        } else if let fields = try? container.decode([String: CascadeJSON].self) {
            value = .object(fields.mapValues(\.value))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }
}
