import Foundation
import LexGenKit

/// The exit status of a usage error (sysexits' EX_USAGE).
let usageExitCode: Int32 = 64

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") || arguments.first == "help" {
    print(Usage.text)
    exit(arguments.isEmpty ? usageExitCode : 0)
}
if arguments == ["--version"] {
    print("lexgen \(LexGenVersion.current)")
    exit(0)
}

let command: String
switch arguments.first {
case "generate", "install", "verify", "lint", "breaking":
    command = arguments.removeFirst()
default:
    command = "generate"
}

do {
    let status: Int32
    switch command {
    case "install": status = try InstallCommand.run(arguments)
    case "verify": status = try VerifyCommand.run(arguments)
    case "lint": status = try LintCommand.run(arguments)
    case "breaking": status = try BreakingCommand.run(arguments)
    default: status = try GenerateCommand.run(arguments)
    }
    exit(status)
} catch let error as UsageError {
    printError("lexgen: error: \(error.description)")
    printError("Run 'lexgen --help' for usage.")
    exit(usageExitCode)
} catch {
    printError("lexgen: error: \(error)")
    exit(1)
}
