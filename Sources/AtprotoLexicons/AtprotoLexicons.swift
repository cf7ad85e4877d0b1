// The SDK for the standard atproto lexicons (com.atproto, app.bsky, chat.bsky, tools.ozone, ...).
//
// An umbrella: the generated types live in one module per namespace (committed in their `Generated`
// folders, written by lexgen from the committed `lexicons/`, see CONTRIBUTING.md), re-exported here so
// that `import AtprotoLexicons` brings all of them, with the runtime and this module's helpers.

@_exported import AppBskyLexicons
// The repository's record types (`RepoOperation`, `DecodedRecord`, `LexiconRecordTypes`) that a
// firehose commit's `operations(decoding:)` returns: a small module, shared with the verification.
@_exported import AtprotoRecordCalls
@_exported import AtprotoRepository
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
