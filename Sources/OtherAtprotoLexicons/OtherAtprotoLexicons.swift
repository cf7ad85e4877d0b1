// Part of the SDK: the standard lexicons outside com.atproto, app.bsky, chat.bsky and tools.ozone (site.standard, ...), generated at build time by the LexiconGen plugin
// from `lexicons/` (the include and exclude of lexgen.json pick them). Apps import `AtprotoLexicons`,
// which re-exports this module. This file exists because a target whose only sources are generated
// is not found as a module.

import XRPCCore
