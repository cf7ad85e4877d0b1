import AtprotoData
import AtprotoSyntax

// The string formats of AtprotoSyntax as lexicon values: a JSON string, read without checking its
// syntax (validation does that), written back exactly.

extension LexiconStringFormat where Self: LexiconValue {
    /// Reads a JSON string; its syntax is not checked here.
    public init(lexiconJSON json: JSONValue) throws {
        guard case .string(let string) = json else {
            throw LexiconDecodingError.typeMismatch(expected: "string", found: json)
        }
        self.init(rawValue: string)
    }

    /// The string as JSON.
    public var lexiconJSON: JSONValue { .string(rawValue) }

    /// Writes the string.
    @_spi(Generated) public func writeJSON(to output: inout LexiconJSONOutput) {
        output.write(string: rawValue)
    }
}

extension DID: LexiconValue {}
extension ATHandle: LexiconValue {}
extension NSID: LexiconValue {}
extension ATURI: LexiconValue {}
extension ATIdentifier: LexiconValue {}
extension TID: LexiconValue {}
extension RecordKey: LexiconValue {}
extension LexiconDatetime: LexiconValue {}
extension CIDString: LexiconValue {}
extension LexiconLanguageTag: LexiconValue {}
extension URIString: LexiconValue {}
