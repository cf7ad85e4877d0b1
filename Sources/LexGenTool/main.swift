import Foundation
import LexGenCommandLine

// The LexiconGen plugin's tool: lexgen without install (and so without lexicon resolution over
// atproto or the installer), so a build compiles only the generator before it can generate.
exit(await LexGen.run(Array(CommandLine.arguments.dropFirst()), install: nil))
