// The SDK for the standard atproto lexicons (com.atproto, app.bsky, chat.bsky, tools.ozone, ...).
//
// Every other file of this module is generated at build time by the LexiconGen plugin from the
// lexicons installed in `lexicons/` (see README.md). This file exists because a target whose only
// sources are generated is not found as a module.

@_exported import XRPCRuntime
