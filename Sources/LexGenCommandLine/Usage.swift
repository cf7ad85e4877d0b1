enum Usage {
    static let text = """
        lexgen: generate Swift from atproto lexicons

        USAGE:
          lexgen [generate] <lexicon-folder>... [--output <folder>] [options]
          lexgen install <nsid or prefix.*>... [--from <folder>] [--update] [network options]
          lexgen install [--from <folder>] [--to <folder>] [--manifest <file>] [--update]
          lexgen verify [--folder <folder>] [--manifest <file>]
          lexgen lint <lexicon-folder>... [--import <Module>=<folder>] [--strict]
          lexgen breaking <old-folder> <new-folder>

        GENERATE (the default command):
          Reads every *.json lexicon under the folders (files are keyed by their `id`, not their path)
          and writes one Swift file per lexicon, plus the client namespaces, into the output folder.
          A file is rewritten only when its bytes change.
          --output <folder>        where to write (default: lexgen-output)
          --access-level <level>   public (default), package or internal
          --module-name <name>     the module the code goes into; names its schema catalog
                                   (<name>Schemas). Default: Lexicons
          --import <Module>=<folder>
                                   lexicons another generated module declares: refs to them use
                                   that module's types instead of generating them (repeatable).
                                   <Module>=<path>/lexgen.json: the lexicons that module's config
                                   generates (its folder, include and exclude). A module whose
                                   lexicons another import has too, all of them, is left out
          --manifest <file>        verify the lexicons against this manifest first; excluded
                                   lexicons then get no output file (outputs follow the NSIDs)
          --include <pattern>      generate only these NSIDs (com.example.*, a full NSID; repeatable)
          --exclude <pattern>      do not generate these NSIDs (repeatable)
          --invalid-lexicons <policy>
                                   fail (default): any error stops the run, nothing is written;
                                   skip: files with errors and the files that ref them are skipped,
                                   the rest is written, exit 1; warn: the same, their errors
                                   reported as warnings, exit 0 (for builds)
          --config <file>          a lexgen.json: lexicons, manifest, accessLevel, include, exclude,
                                   modules (NSID pattern -> imported module), invalidLexicons.
                                   Options given here win.
          --quiet                  print only diagnostics, no summary
          --timing                 print the time of each stage (read, load, resolve, plan, render, write)

        INSTALL:
          Puts lexicons into the project (the package root's lexicons/, found upwards from the current
          folder) and pins each in the manifest by NSID and SHA-256, plus record URI and CID when it came
          over atproto.
          lexgen install <nsid>...   resolves each over atproto: _lexicon.<authority> DNS TXT -> DID ->
                                   PDS -> com.atproto.lexicon.schema record <nsid>, proved against the
                                   account's signed commit; every lexicon they ref comes too. Installs
                                   merge into the manifest. A prefix ending in .* takes every lexicon
                                   its authority publishes under it. With --from <folder>, from that
                                   folder instead (by id, refs followed).
          lexgen install [--from <folder>]
                                   exactly what the manifest pins (a restore): files that match are
                                   kept, others fetched again (from the folder, the manifest's
                                   source folder, or over atproto) and checked against their pin, and
                                   against their authority: a record of another DID than
                                   _lexicon.<authority> names now is refused (--update <nsid> accepts
                                   the move). With no manifest yet, --from takes the whole folder.
          Every lexicon is written reduced to its facts: descriptions removed, keys sorted, one
          canonical form; the manifest pins the published lexicon and the written file.
          --to <folder>            where to install (default: <package root>/lexicons)
          --manifest <file>        the manifest (default: <package root>/lexicons.manifest.json)
          --update                 move pins to the current versions (named ones, or every pin)
          --import <Module>=<lexgen.json or folder>
                                   lexicons that module declares (the SDK the target depends on) are
                                   not installed: its types are the ones to use (repeatable)
          --skip-verification      read records without proving them (a PDS you trust)
          --dns-server <host[:port]>
                                   nameserver for _lexicon records: an IP address or a host name,
                                   [IPv6]:port with a port (repeatable; default: resolv.conf)
          --plc-directory <url>    PLC directory for did:plc (default: https://plc.directory)

        VERIFY:
          Checks installed lexicons against the manifest; names each missing or altered file. Files
          the manifest does not pin are the project's own lexicons (generated with the others).

        LINT:
          Checks lexicons against the spec without generating: JSON, def kinds where they stand,
          refs, union members, records without a key, knownValues naming missing defs, names that
          differ only in case. Exit 1 on errors (--strict: on warnings too).

        BREAKING:
          Compares two versions of a set of lexicons and lists the changes that break existing data
          or clients: removals, fields made required, types changed, unions closed, knownValues made
          enum, constraints tightened. Exit 1 when there is any.

        OPTIONS:
          -h, --help               show this help
          --version                show the version

        EXIT STATUS: 0 success, 1 errors in lexicons or files, 64 bad arguments.
        """
}
