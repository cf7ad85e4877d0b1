import Foundation
import LexgenCommandLine
import LexgenInstall

// The thin shell: the commands live in LexgenCommandLine, install in LexgenInstall; lexicon resolution
// over atproto in AtprotoLexiconResolution, which only this executable (not the build plugin's tool) links.
let status = await Lexgen.run(Array(CommandLine.arguments.dropFirst())) { arguments in
    try await InstallCommand.run(arguments, network: { try AtprotoInstallSource($0) })
}
exit(status)
