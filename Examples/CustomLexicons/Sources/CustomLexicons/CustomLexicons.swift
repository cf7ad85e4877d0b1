// The app's own lexicons, generated at build time by the LexiconGen plugin from ./lexicons.
@_exported import AtprotoLexicons
