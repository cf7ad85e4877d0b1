import Foundation
import LexgenCommandLine

// The LexiconGen plugin's tool: lexgen without lexicon resolution over atproto, so a build compiles
// only the generator before it can generate.
exit(await Lexgen.run(Array(CommandLine.arguments.dropFirst()), network: nil))
