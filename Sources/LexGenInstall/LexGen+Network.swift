import Foundation
import LexGenCommandLine
import LexGenKit

extension LexGen {
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
}
