// The SDK for the standard atproto lexicons (com.atproto, app.bsky, chat.bsky, tools.ozone, ...).
//
// An umbrella: the generated types live in one module per namespace (generated at build time by the
// LexiconGen plugin from the lexicons installed in `lexicons/`, see README.md), re-exported here so
// that `import AtprotoLexicons` brings all of them, with the runtime and this module's helpers.

@_exported import AppBskyLexicons
// The repository's record types (`RepoOperation`, `DecodedRecord`, `LexiconRecordTypes`) that a
// firehose commit's `operations(decoding:)` returns live with the repository code they share.
@_exported import AtprotoVerification
@_exported import ChatBskyLexicons
@_exported import ComAtprotoLexicons
@_exported import OtherAtprotoLexicons
@_exported import ToolsOzoneLexicons
@_exported import XRPCRuntime

/// The lexicons of the SDK, for validating values: every namespace module's catalog.
///
/// Modules generated against `AtprotoLexicons` (the plugin in a downstream target) search it for the
/// standard lexicons their refs name.
public enum AtprotoLexiconsSchemas {
    /// The catalogs of the namespace modules, searched in order.
    public static let catalog = XRPCRuntime.LexiconSchemaCatalog(
        documentTexts: [],
        imports: [
            ComAtprotoLexiconsSchemas.catalog, AppBskyLexiconsSchemas.catalog, ChatBskyLexiconsSchemas.catalog,
            ToolsOzoneLexiconsSchemas.catalog, OtherAtprotoLexiconsSchemas.catalog,
        ]
    )
}
