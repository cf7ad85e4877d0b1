import Foundation
import LexGenCommandLine
import LexGenInstall

// The thin shell: the commands live in LexGenCommandLine, install in LexGenInstall; lexicon resolution
// over atproto in AtprotoLexiconResolution, which only this executable (not the build plugin's tool) links.
let status = await LexGen.run(Array(CommandLine.arguments.dropFirst())) { arguments in
    try await InstallCommand.run(arguments, network: { try AtprotoInstallSource($0) })
}
exit(status)
