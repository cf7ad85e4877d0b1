import Foundation
import LexgenCommandLine

// The thin shell: the commands live in LexgenCommandLine; lexicon resolution over atproto in
// AtprotoLexiconResolution, which only this executable (not the build plugin's tool) links.
let status = await Lexgen.run(Array(CommandLine.arguments.dropFirst()), network: { try AtprotoInstallSource($0) })
exit(status)
