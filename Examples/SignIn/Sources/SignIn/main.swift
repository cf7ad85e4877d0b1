import AtprotoOAuth
import Foundation
import SwiftCryptoSigner

// sign-in <handle | PDS URL> [--plc-directory <url>] [--browser <command>] [--post <text>]
//
// Signs in with OAuth (the browser shows the account's sign-in page; the redirect comes back to a
// one-shot listener on 127.0.0.1), then calls the PDS through the generated methods.

/// What the command line asked for.
struct Options {
    var account = ""
    var plcDirectory = PLCDirectoryResolver.publicDirectory
    var browser: String?
    var post: String?

    init?(_ arguments: [String]) {
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard ["--plc-directory", "--browser", "--post"].contains(name) else {
                rest.append(name)
                index += 1
                continue
            }
            guard index + 1 < arguments.count else { return nil }
            let value = arguments[index + 1]
            index += 2
            switch name {
            case "--plc-directory":
                guard let url = URL(string: value) else { return nil }
                plcDirectory = url
            case "--browser": browser = value
            default: post = value
            }
        }
        guard rest.count == 1, let account = rest.first else { return nil }
        self.account = account
    }
}

func run(_ options: Options) async throws {
    // Resolution as atproto specifies (DNS and well-known handles, plc.directory and did:web); a
    // test PDS brings its own PLC directory.
    let resolver = try StandardIdentityResolver(plcDirectory: options.plcDirectory)
    let client = AtprotoOAuthClient(
        configuration: .development(), keyFactory: SwiftCryptoES256KeyFactory(), resolver: resolver)
    let browser = options.browser
    let authenticator = OAuthLoopbackAuthenticator(timeout: .seconds(300)) { url in
        guard let browser else {
            print("Open this page to sign in:\n\(url.absoluteString)")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = [url.absoluteString]
        try process.run()  // the browser follows the redirect to the listener; no need to wait
    }
    let start: OAuthSignInStart =
        if let url = URL(string: options.account), url.scheme == "http" || url.scheme == "https" {
            .server(url)
        } else {
            .account(options.account)
        }
    let session = try await client.signIn(start, with: authenticator)

    // The session is an XRPCAgent: every generated method goes through it, DPoP-signed.
    let xrpc = XRPCClient(agent: session)
    let me = try await xrpc.com.atproto.server.getSession()
    print("signed in as \(me.handle.rawValue) (\(me.did.rawValue))")
    if let text = options.post {
        let post = AppBskyFeedPost(text: text, createdAt: LexiconDatetime.now())
        let created = try await xrpc.com.atproto.repo.createRecord(
            repo: ATIdentifier(me.did), collection: AppBskyFeedPost.collection,
            record: LexiconUnknownValue(encoding: post))
        print("posted \(created.uri.rawValue)")
    }
    try await session.signOut()
}

guard let options = Options(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(
        Data("usage: sign-in <handle | PDS URL> [--plc-directory <url>] [--browser <command>] [--post <text>]\n".utf8))
    exit(64)
}
try await run(options)
