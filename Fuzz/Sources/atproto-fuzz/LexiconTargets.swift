import AtprotoLexiconResolution
import Foundation
import FuzzDriver
import LexGenKit
import LexGenSchema
import XRPCRuntime

/// The generator over untrusted lexicons: load, resolve, plan and render.
let lexiconTargets: [FuzzTarget] = [
    FuzzTarget("lexicon", "LexiconGenerator.generate and the linter over lexicon files split at NUL bytes") { bytes in
        let files = bytes.split(separator: 0, omittingEmptySubsequences: true).prefix(8)
        let sources = files.enumerated().map { index, file in
            LexiconSource(displayPath: "fuzz\(index).json", relativePath: "fuzz\(index).json", bytes: Array(file))
        }
        guard !sources.isEmpty else { return }
        let result = LexiconGenerator.generate(sources)
        _ = result.files.count
        _ = LexiconLinter.lint(sources).all.count
    }
]

/// What `lexgen install` reads from the network and from disk: a lexicon record made into a file, its
/// content hash and references, and the manifest.
let lexiconInstallTargets: [FuzzTarget] = [
    FuzzTarget(
        "lexicon-install",
        "a record as a lexicon file (reads back equal, same content hash), references, manifest parsing"
    ) { bytes in
        let data = Data(bytes)
        _ = try? LexiconManifest(jsonData: data, file: "fuzz.json").jsonString()
        _ = LexiconReferences.nsids(inLexicon: data)
        _ = LexiconContentHash.of(data)
        guard let document = try? JSONValue.parse(data), case .object = document else { return }
        let lexicon = ResolvedLexicon(
            nsid: "com.example.fuzz",
            uri: ATURI(rawValue: "at://did:plc:fuzz/com.atproto.lexicon.schema/com.example.fuzz"),
            cid: CID(sha256Of: data), document: document, provedAtRevision: nil)
        let file = lexicon.fileData
        fuzzCheck((try? JSONValue.parse(file)) == document, "the lexicon file does not read back as its record")
        fuzzCheck(
            LexiconContentHash.of(file) == LexiconContentHash.of(document.serialized()),
            "the file and the record have different content hashes")
    }
]
