import Foundation
import LexGenKit

/// The exit status of a usage error (sysexits' EX_USAGE).
let usageExitCode: Int32 = 64

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The `lexgen` command line, shared by the `lexgen` executable (with lexicon resolution over atproto)
/// and the build plugin's tool (generation only, so a build does not compile the network stack).
public enum Lexgen {
    /// How `lexgen install <nsid>` reaches atproto: the options given, and the source they make.
    public typealias NetworkSourceFactory = @Sendable (NetworkOptions) throws -> any LexiconInstallSource

    /// The options of `lexgen install` that say how atproto is reached.
    public struct NetworkOptions: Sendable, Hashable {
        /// `--dns-server host[:port]` (repeatable; an IP address or a host name, `[IPv6]:port`): the
        /// nameservers asked for `_lexicon` TXT records; empty for the system's.
        public var dnsServers: [String]
        /// `--plc-directory <url>`: the PLC directory; `nil` for the public one.
        public var plcDirectory: String?
        /// `--skip-verification`: read records without proving them.
        public var skipVerification: Bool
    }

    /// Runs the command line with `arguments` (without the program name) and returns the exit status.
    ///
    /// - Parameter network: Makes the atproto source of `lexgen install <nsid>`; `nil` in a tool that
    ///   only generates, where such an install is a usage error that names `swift run lexgen install`.
    public static func run(_ arguments: [String], network: NetworkSourceFactory?) async -> Int32 {
        var arguments = arguments
        if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") || arguments.first == "help" {
            print(Usage.text)
            return arguments.isEmpty ? usageExitCode : 0
        }
        if arguments == ["--version"] {
            print("lexgen \(LexGenVersion.current)")
            return 0
        }
        let command: String
        switch arguments.first {
        case "generate", "install", "verify", "lint", "breaking":
            command = arguments.removeFirst()
        default:
            command = "generate"
        }
        do {
            switch command {
            case "install": return try await InstallCommand.run(arguments, network: network)
            case "verify": return try VerifyCommand.run(arguments)
            case "lint": return try LintCommand.run(arguments)
            case "breaking": return try BreakingCommand.run(arguments)
            default: return try GenerateCommand.run(arguments)
            }
        } catch let error as UsageError {
            printError("lexgen: error: \(error.description)")
            printError("Run 'lexgen --help' for usage.")
            return usageExitCode
        } catch let error as InstallError {
            // One label: `<file>: error: ...` (compiler style, as the diagnostics) or `lexgen: error: ...`.
            printError(error.file == nil ? "lexgen: error: \(error.message)" : error.description)
            return 1
        } catch {
            printError("lexgen: error: \(error)")
            return 1
        }
    }
}
