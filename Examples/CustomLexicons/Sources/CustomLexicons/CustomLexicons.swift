// The app's own lexicons, generated at build time by the LexGen plugin from ./lexicons.
@_exported import AtprotoLexicons
