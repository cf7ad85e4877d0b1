import AppBskyLexicons
import AtprotoIdentityResolution
import ComAtprotoLexicons

extension RichText {
    /// `text` with the links and tags found in it, and its mentions resolved by `resolveMention`.
    ///
    /// Each distinct handle is resolved once (lower-cased, as handles compare), all at the same time.
    /// A mention whose handle does not resolve (`nil`) gets no facet: it stays plain text, never a
    /// facet with an empty or made-up DID. Facets come out sorted by their start.
    ///
    /// - Parameters:
    ///   - text: The text as typed.
    ///   - resolveMention: The DID of a handle, or `nil`: an app's own lookup (its cache of the
    ///     accounts it has shown, `com.atproto.identity.resolveHandle` on its PDS, ...).
    public static func detecting(
        _ text: String,
        resolveMention: @escaping @Sendable (ATHandle) async -> DID?
    ) async -> RichText {
        let detected = FacetDetector.detect(in: text)
        var handles = Set<String>()
        for facet in detected {
            if case .mention(let handle) = facet.kind { handles.insert(handle.lowercased()) }
        }
        let dids = await withTaskGroup(of: (String, DID?).self) { group in
            for handle in handles {
                group.addTask { (handle, await resolveMention(ATHandle(rawValue: handle))) }
            }
            var dids: [String: DID] = [:]
            for await (handle, did) in group { dids[handle] = did }
            return dids
        }
        var facets: [AppBskyRichtextFacet] = []
        for facet in detected {
            switch facet.kind {
            case .mention(let handle):
                guard let did = dids[handle.lowercased()] else { continue }
                facets.append(AppBskyRichtextFacet(bytes: facet.bytes, feature: .mention(did)))
            case .link(let uri):
                facets.append(AppBskyRichtextFacet(bytes: facet.bytes, feature: .link(URIString(rawValue: uri))))
            case .tag(let tag):
                facets.append(AppBskyRichtextFacet(bytes: facet.bytes, feature: .tag(tag)))
            }
        }
        return RichText(text: text, facets: facets)
    }

    /// `text` with the links and tags found in it and its mentions resolved by `resolver` (any
    /// `HandleResolver`: the standard resolver, a caching one, an
    /// identity service's). A handle the resolver cannot resolve stays plain text.
    public static func detecting(_ text: String, resolver: some HandleResolver) async -> RichText {
        await detecting(text) { handle in try? await resolver.resolveHandle(handle) }
    }

    /// `text` with the links and tags found in it; mentions are left as plain text (no network).
    public static func detectingLinksAndTags(_ text: String) -> RichText {
        var facets: [AppBskyRichtextFacet] = []
        for facet in FacetDetector.detect(in: text) {
            switch facet.kind {
            case .mention: continue
            case .link(let uri):
                facets.append(AppBskyRichtextFacet(bytes: facet.bytes, feature: .link(URIString(rawValue: uri))))
            case .tag(let tag): facets.append(AppBskyRichtextFacet(bytes: facet.bytes, feature: .tag(tag)))
            }
        }
        return RichText(text: text, facets: facets)
    }
}
