import AtprotoLexicons
import BlueskyKit
import Foundation

/// The references the figures are compared with, in the same run. The official implementation is
/// TypeScript (`@atproto/api`), which cannot run here (no npm registry on this machine), so the
/// references are the straightforward Swift ports of what it does:
/// - segments: the text as a byte array, facets sorted, each slice decoded with `String(decoding:)`
///   (no grapheme handling: a slice that splits a sequence would decode to U+FFFD);
/// - detection: the official client's regular expressions run by `NSRegularExpression` (ICU), the
///   tool a port would reach for. Their matches are counted, not checked (ICU's `\b` and `\s`
///   differ slightly from JavaScript's), so this is a cost reference, not a second implementation.
enum Reference {
    static func segments(_ rich: RichText) -> [String] {
        let bytes = Array(rich.text.utf8)
        let facets = rich.facets.sorted { $0.index.byteStart < $1.index.byteStart }
        var result: [String] = []
        var cursor = 0
        for facet in facets where facet.index.byteStart >= cursor && facet.index.byteEnd <= bytes.count {
            if cursor < facet.index.byteStart {
                result.append(String(decoding: bytes[cursor..<facet.index.byteStart], as: UTF8.self))
            }
            if facet.index.byteStart < facet.index.byteEnd {
                result.append(String(decoding: bytes[facet.index.byteStart..<facet.index.byteEnd], as: UTF8.self))
            }
            cursor = facet.index.byteEnd
        }
        if cursor < bytes.count { result.append(String(decoding: bytes[cursor...], as: UTF8.self)) }
        return result
    }

    static let expressions: [NSRegularExpression] = [
        (#"(^|\s|\()(@)([a-zA-Z0-9.-]+)(\b)"#, []),
        (
            #"(^|\s|\()((https?:\/\/[\S]+)|((?<domain>[a-z][a-z0-9]*(\.[a-z0-9]+)+)[\S]*))"#,
            [.caseInsensitive, .anchorsMatchLines]
        ),
        (
            #"(^|\s)[#＃]((?!\x{fe0f})[^\s\x{00AD}\x{2060}\x{200A}\x{200B}\x{200C}\x{200D}\x{20e2}]*[^\d\s\p{P}\x{00AD}\x{2060}\x{200A}\x{200B}\x{200C}\x{200D}\x{20e2}]+[^\s\x{00AD}\x{2060}\x{200A}\x{200B}\x{200C}\x{200D}\x{20e2}]*)?"#,
            []
        ),
        (#"(^|\s|\()\$([A-Za-z][A-Za-z0-9]{0,4})(?=\s|$|[.,;:!?)"'\x{2019}])"#, []),
    ].compactMap { (pattern: String, options: NSRegularExpression.Options) in
        try? NSRegularExpression(pattern: pattern, options: options)
    }

    /// The number of matches of the official client's expressions in `text`, with the UTF-8 offset
    /// of each match computed as the official client does (from its UTF-16 offset).
    static func detect(_ text: String) -> Int {
        let string = text as NSString
        var found = 0
        for expression in expressions {
            for match in expression.matches(in: text, range: NSRange(location: 0, length: string.length)) {
                found += string.substring(to: match.range.location).utf8.count >= 0 ? 1 : 0
            }
        }
        return found
    }
}
