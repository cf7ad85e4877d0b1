import Foundation
import LexGenKit

/// The exit status of a usage error (sysexits' EX_USAGE).
let usageExitCode: Int32 = 64

package func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The `lexgen` command line, shared by the `lexgen` executable (with lexicon resolution over atproto)
/// and the build plugin's tool (generation only, so a build does not compile the network stack).
public enum LexGen {
    /// Runs `lexgen install` with its arguments (after `install`) and returns the exit status: the
    /// lexgen executable passes LexGenInstall's `InstallCommand`; the build plugin's tool passes none.
    public typealias InstallRunner = @Sendable ([String]) async throws -> Int32

    /// Runs the command line with `arguments` (without the program name) and returns the exit status.
    ///
    /// - Parameter install: Runs `lexgen install`; `nil` in a tool that only generates (the build
    ///   plugin's, which so compiles no install code), where `install` is a usage error that names
    ///   `swift run lexgen install`.
    public static func run(_ arguments: [String], install: InstallRunner?) async -> Int32 {
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
            case "install":
                guard let install else {
                    throw UsageError("this tool only generates; install lexicons with swift run lexgen install")
                }
                return try await install(arguments)
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
