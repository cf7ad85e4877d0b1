import Foundation
import LexGenKit
import LexGenSchema
import SHA2

extension LexiconInstaller {
    /// Installs the lexicons named by `requested` (NSIDs, or patterns such as `com.example.*`) and every
    /// lexicon they refer to, transitively, from `source` into `destination`, and pins them in the manifest.
    ///
    /// The manifest is merged, not replaced: lexicons installed before and not named now stay. A lexicon
    /// the manifest already pins is not fetched when its installed file matches the pin; when the file is
    /// missing or altered it is fetched again and must match the pin (its record CID, when it came over
    /// atproto, and its SHA-256), else the install stops and says so. `update` moves pins instead: every
    /// lexicon named or referred to is fetched in its current version.
    ///
    /// Nothing is written unless every lexicon of the closure was found, is a lexicon with the right `id`,
    /// and matches its pin: a failed install leaves the folder and the manifest as they were.
    ///
    /// - Parameter progress: Called with one line per lexicon fetched (for a command line's progress);
    ///   not called for a local source (``LexiconInstallSource/isLocal``), which fetches nothing.
    /// - Throws: ``InstallError``: a lexicon not found (with the chain of references that asked for it),
    ///   a pattern that matches nothing, a pin that no longer matches, an unreadable manifest, a file that
    ///   cannot be written; or the source's own error (network, verification).
    public static func install(
        _ requested: [String],
        from source: any LexiconInstallSource,
        to destination: URL,
        manifest manifestURL: URL,
        update: Bool,
        provided: [String: String] = [:],
        progress: @Sendable (String) -> Void = { _ in }
    ) async throws -> NamedInstallReport {
        let named = Set(requested)
        var providedFound: [(nsid: String, module: String, named: Bool)] = []
        let existing: LexiconManifest
        if FileManager.default.fileExists(atPath: manifestURL.path) {
            existing = try LexiconManifest(contentsOf: manifestURL)
        } else {
            existing = LexiconManifest(entries: [])
        }
        var queue: [String] = []
        var askedBy: [String: String] = [:]
        for name in requested {
            if let problem = NSIDPattern.problem(in: name) {
                throw InstallError(file: nil, message: problem)
            }
            guard name.hasSuffix("*") else {
                queue.append(name)
                continue
            }
            let matches: [String]
            do {
                matches = try await source.nsids(matching: name)
            } catch let error as LexiconSourceUnreachable {
                throw InstallError(file: nil, message: "\(error)", sourceUnreachable: true)
            }
            guard !matches.isEmpty else {
                throw InstallError(file: nil, message: "no lexicon in \(source.label) matches \(name)")
            }
            queue += matches
        }

        var resolved: [String: (entry: LexiconManifest.Entry, data: Data, fetched: Bool)] = [:]
        var order: [String] = []
        var moved: [MovedPin] = []
        // Pins whose authority now names another publisher: all of them are found before the install
        // stops, so one message (and one --update) covers every moved pin.
        var publisherMoves: [(nsid: String, problem: String)] = []
        var fetchedCount = 0
        let showsProgress = !source.isLocal
        while !queue.isEmpty {
            let nsid = queue.removeFirst()
            guard resolved[nsid] == nil else { continue }
            // A lexicon an imported module declares (the SDK the target depends on) is that module's:
            // its type is the one to use, and installing it would make a second type for it.
            if let module = provided[nsid] {
                if !providedFound.contains(where: { $0.nsid == nsid }) {
                    providedFound.append((nsid, module, named.contains(nsid)))
                }
                continue
            }
            let pinned = existing.entry(forNSID: nsid)
            let item: (entry: LexiconManifest.Entry, data: Data, fetched: Bool)
            if let pinned, !update {
                if let local = try? Data(contentsOf: destination.appendingPathComponent(pinned.path)),
                    pinned.matchesInstalled(local)
                {
                    item = (pinned, local, false)
                } else {
                    if showsProgress { progress("fetching \(nsid) (pinned \(pinned.record?.cid ?? pinned.sha256))") }
                    if let problem = try await publisherMove(of: pinned, in: source, askedBy: askedBy) {
                        publisherMoves.append((nsid, problem))
                        resolved[nsid] = (pinned, Data(), false)
                        // Its references are checked too: taken from the current version, which is only read.
                        let current = try? await source.lexicon(nsid)
                        for reference in LexiconReferences.nsids(inLexicon: current?.data ?? Data())
                        where resolved[reference] == nil {
                            if askedBy[reference] == nil { askedBy[reference] = nsid }
                            queue.append(reference)
                        }
                        continue
                    }
                    guard
                        let fetched = try await fetch(
                            nsid, askedBy: askedBy, { try await source.lexicon(pinnedBy: pinned) })
                    else {
                        throw await notFound(nsid, in: source, askedBy: askedBy)
                    }
                    let entry = try checkedEntry(fetched, nsid: nsid)
                    try requireSame(entry, as: pinned, manifestURL: manifestURL)
                    var kept = pinned
                    kept.facts = entry.facts
                    item = (kept, try reduced(fetched), true)
                }
            } else {
                if showsProgress { progress("fetching \(nsid)") }
                guard let fetched = try await fetch(nsid, askedBy: askedBy, { try await source.lexicon(nsid) }) else {
                    throw await notFound(nsid, in: source, askedBy: askedBy)
                }
                let entry = try checkedEntry(fetched, nsid: nsid)
                if let pinned, !pinned.matches(fetched.data) || pinned.record != entry.record {
                    moved.append(MovedPin(nsid: nsid, from: pinned, to: entry))
                }
                item = (entry, try reduced(fetched), true)
            }
            resolved[nsid] = item
            order.append(nsid)
            if item.fetched { fetchedCount += 1 }
            for reference in LexiconReferences.nsids(inLexicon: item.data) where resolved[reference] == nil {
                if askedBy[reference] == nil { askedBy[reference] = nsid }
                queue.append(reference)
            }
        }

        if !publisherMoves.isEmpty {
            let nsids = publisherMoves.map(\.nsid)
            let intro =
                nsids.count == 1
                ? "" : "\(nsids.count) pinned lexicons now have another publisher (\(nsids.joined(separator: ", "))):\n"
            throw InstallError(
                file: manifestURL.path,
                message: intro + publisherMoves.map(\.problem).joined(separator: "\n")
                    + "\nnothing was installed. If the new publishers are the rightful ones now, install "
                    + (nsids.count == 1 ? "it" : "them") + " with --update to move the pins",
                pinsToMove: nsids)
        }

        // Every lexicon is in hand: now write, so a failure above leaves everything as it was.
        var entries = existing.entries.filter { resolved[$0.nsid] == nil }
        let paths = Set(entries.map(\.path))
        var written = 0
        var unchanged = 0
        for nsid in order {
            guard let item = resolved[nsid] else { continue }
            if paths.contains(item.entry.path) {
                throw InstallError(
                    file: manifestURL.path,
                    message: "\(item.entry.path) is pinned for another lexicon than \(nsid); remove that entry first")
            }
            entries.append(item.entry)
            let target = destination.appendingPathComponent(item.entry.path)
            if let current = try? Data(contentsOf: target), current == item.data {
                unchanged += 1
                continue
            }
            do {
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try item.data.write(to: target, options: .atomic)
            } catch {
                throw InstallError(file: target.path, message: "cannot write: \(error.localizedDescription)")
            }
            written += 1
        }
        // The resolver options are those of the last install that pinned records over atproto (not of a
        // folder install, nor of the fallback that fetched folder pins over atproto and keeps them).
        let pinnedOverNetwork = !source.isLocal && order.contains { resolved[$0]?.entry.record != nil }
        // A folder's path is recorded relative to the manifest (never absolute); a network source keeps
        // the folder recorded before, if any.
        let folder = (source as? FolderInstallSource).map {
            LexiconManifest.sourcePath($0.folder.path, relativeTo: manifestURL)
        }
        let manifest = LexiconManifest(
            entries: entries, source: folder ?? existing.source,
            resolver: pinnedOverNetwork ? source.resolverOptions : existing.resolver)
        var manifestWritten = false
        // Nothing installed and no manifest yet (every lexicon named is an imported module's): no file.
        let nothingToPin = manifest.entries.isEmpty && !FileManager.default.fileExists(atPath: manifestURL.path)
        if !nothingToPin, (try? Data(contentsOf: manifestURL)) != manifest.jsonData() {
            do {
                try FileManager.default.createDirectory(
                    at: manifestURL.deletingLastPathComponent(), withIntermediateDirectories: true)
                try manifest.jsonData().write(to: manifestURL, options: .atomic)
            } catch {
                throw InstallError(file: manifestURL.path, message: "cannot write: \(error.localizedDescription)")
            }
            manifestWritten = true
        }
        var report = NamedInstallReport(
            nsids: order, fetched: fetchedCount, written: written, unchanged: unchanged, moved: moved,
            manifestWritten: manifestWritten,
            manifest: manifest, sourceIsLocal: source.isLocal)
        report.provided = providedFound
        return report
    }

    /// Runs a source's fetch; its error is told with the chain of references that asked for the lexicon.
    private static func fetch(
        _ nsid: String, askedBy: [String: String], _ body: () async throws -> FetchedLexicon?
    ) async throws -> FetchedLexicon? {
        do {
            return try await body()
        } catch let error as InstallError {
            throw error
        } catch {
            throw InstallError(
                file: nil, message: "\(error)\(chain(of: nsid, askedBy: askedBy))",
                sourceUnreachable: error is LexiconSourceUnreachable)
        }
    }

    /// ` (referred to by a <- b)` for a lexicon asked for by references, else empty.
    private static func chain(of nsid: String, askedBy: [String: String]) -> String {
        var chain: [String] = []
        var current = nsid
        while let parent = askedBy[current], !chain.contains(parent) {
            chain.append(parent)
            current = parent
        }
        return chain.isEmpty ? "" : " (referred to by \(chain.joined(separator: " <- ")))"
    }

    /// The manifest entry of a fetched lexicon, after checking it is a lexicon whose `id` is the NSID asked.
    private static func checkedEntry(_ fetched: FetchedLexicon, nsid: String) throws -> LexiconManifest.Entry {
        let id = try LexiconManifest.lexiconID(in: fetched.data, file: fetched.record?.uri ?? fetched.path)
        guard id == nsid else {
            throw InstallError(
                file: fetched.record?.uri ?? fetched.path, message: "asked for \(nsid), the lexicon's id is \(id)")
        }
        guard LexiconManifest.isValidRelativePath(fetched.path) else {
            throw InstallError(file: fetched.path, message: "not a relative path to a .json file")
        }
        return LexiconManifest.Entry(
            nsid: nsid, path: fetched.path, sha256: SHA256.hexHash(fetched.data), record: fetched.record,
            content: LexiconContentHash.of(fetched.data), facts: SHA256.hexHash(try reduced(fetched)))
    }

    /// The file an install writes for a fetched lexicon: its facts (``LexiconFacts``).
    private static func reduced(_ fetched: FetchedLexicon) throws -> Data {
        try LexiconFacts.reduce(fetched.data, file: fetched.record?.uri ?? fetched.path)
    }

    private static func requireSame(
        _ entry: LexiconManifest.Entry, as pinned: LexiconManifest.Entry, manifestURL: URL
    ) throws {
        var differences: [String] = []
        if let pin = pinned.record, let now = entry.record, pin.cid != now.cid {
            differences.append("its record is now \(now.cid), the manifest pins \(pin.cid)")
        }
        if let content = pinned.content {
            if entry.content != content {
                differences.append("its content hash is now \(entry.content ?? "none"), the manifest pins \(content)")
            }
        } else if entry.sha256 != pinned.sha256 {
            differences.append("its SHA-256 is now \(entry.sha256), the manifest pins \(pinned.sha256)")
        }
        guard !differences.isEmpty else { return }
        throw InstallError(
            file: manifestURL.path,
            message: "\(pinned.nsid) changed since it was pinned: \(differences.joined(separator: "; ")); "
                + "nothing was installed. Install it with --update to move the pin to the current version",
            pinsToMove: [pinned.nsid])
    }

    /// Why a lexicon pinned by record must not be re-installed: its authority now names another
    /// publisher (or the manifest's record URI was edited to another DID), so the pinned record is not the
    /// one the authority stands for now, and only `--update` may move a pin to another publisher.
    /// `nil` when the publisher is the pinned one (or the pin is not a record).
    private static func publisherMove(
        of pinned: LexiconManifest.Entry, in source: any LexiconInstallSource, askedBy: [String: String]
    ) async throws -> String? {
        guard let record = pinned.record else { return nil }
        let current: String?
        do {
            current = try await source.currentPublisher(of: pinned.nsid)
        } catch let error as InstallError {
            throw error
        } catch {
            throw InstallError(
                file: nil, message: "\(error)\(chain(of: pinned.nsid, askedBy: askedBy))",
                sourceUnreachable: error is LexiconSourceUnreachable)
        }
        guard let current, current != record.publisher else { return nil }
        return "\(pinned.nsid) is pinned to the record \(record.uri), published by "
            + "\(record.publisher ?? "no DID"), but its authority now names \(current) as its publisher"
    }

    private static func notFound(
        _ nsid: String, in source: any LexiconInstallSource, askedBy: [String: String]
    ) async -> InstallError {
        let near = await source.nsid(near: nsid).map { " (did you mean \($0)?)" } ?? ""
        return InstallError(
            file: nil,
            message: "lexicon \(nsid) was not found in \(source.label)\(near)\(chain(of: nsid, askedBy: askedBy))")
    }
}
