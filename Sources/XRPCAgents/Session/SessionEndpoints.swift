import AtprotoData
import AtprotoSyntax
import Foundation
import XRPCCore

/// The `com.atproto.server` session calls as raw XRPC requests, and the reading of their answers.
///
/// The runtime cannot use the generated SDK, so it reads the few fields it needs from the JSON tree.
/// Messages name fields, never values: these bodies carry tokens.
enum SessionEndpoints {
    static let createSession: NSID = "com.atproto.server.createSession"
    static let refreshSession: NSID = "com.atproto.server.refreshSession"
    static let getSession: NSID = "com.atproto.server.getSession"
    static let deleteSession: NSID = "com.atproto.server.deleteSession"

    static func createSessionRequest(_ credentials: PasswordSessionCredentials, service: URL) -> XRPCRequest {
        var fields: [String: JSONValue] = [
            "identifier": .string(credentials.identifier), "password": .string(credentials.password),
        ]
        if let token = credentials.authFactorToken { fields["authFactorToken"] = .string(token) }
        return XRPCRequest(
            method: .post, nsid: createSession, body: JSONValue.object(fields).serialized(),
            contentType: "application/json", serviceURL: service)
    }

    /// A session call that carries `token` (the refresh token for refresh and delete).
    static func tokenRequest(_ nsid: NSID, token: XRPCSessionToken, service: URL) -> XRPCRequest {
        XRPCRequest(method: .post, nsid: nsid, headers: ["Authorization": token.bearer], serviceURL: service)
    }

    /// Whether the server rejected the token a call carried: `ExpiredToken`, `InvalidToken`, or 401.
    static func isTokenRejection(_ response: XRPCResponse) -> Bool {
        if response.status == 401 { return true }
        guard response.status == 400, let name = errorName(of: response) else { return false }
        return name == "ExpiredToken" || name == "InvalidToken"
    }

    static func errorName(of response: XRPCResponse) -> String? {
        guard !response.isSuccess, response.body.first == UInt8(ascii: "{") else { return nil }
        return (try? JSONValue.parse(response.body))?.objectValue?["error"]?.stringValue
    }

    /// The archive in a successful createSession or refreshSession answer.
    static func archive(
        from response: XRPCResponse,
        nsid: NSID,
        service: URL,
        previous: PasswordSessionArchive?
    ) throws(PasswordSessionError) -> PasswordSessionArchive {
        let fields = try object(in: response, nsid: nsid)
        let access = try string("accessJwt", in: fields, nsid: nsid)
        let refresh = try string("refreshJwt", in: fields, nsid: nsid)
        let did = try string("did", in: fields, nsid: nsid)
        let handle = try string("handle", in: fields, nsid: nsid)
        var archive = PasswordSessionArchive(
            service: service, did: DID(rawValue: did), handle: ATHandle(rawValue: handle),
            accessToken: XRPCSessionToken(access), refreshToken: XRPCSessionToken(refresh),
            pdsEndpoint: previous?.did.rawValue == did ? previous?.pdsEndpoint : nil,
            email: previous?.email, active: previous?.active, status: previous?.status)
        applyAccountFields(fields, to: &archive)
        return archive
    }

    /// `archive` with what a getSession answer says about the account (handle, PDS, email, status).
    static func applyGetSession(_ response: XRPCResponse, to archive: PasswordSessionArchive)
        throws(PasswordSessionError)
        -> PasswordSessionArchive
    {
        let fields = try object(in: response, nsid: getSession)
        let did = try string("did", in: fields, nsid: getSession)
        guard did == archive.did.rawValue else {
            throw PasswordSessionError(
                .invalidResponse,
                message: "\(getSession) answered for \(did), but the session is \(archive.did.rawValue)")
        }
        var updated = archive
        if let handle = fields["handle"]?.stringValue { updated.handle = ATHandle(rawValue: handle) }
        applyAccountFields(fields, to: &updated)
        return updated
    }

    private static func applyAccountFields(_ fields: [String: JSONValue], to archive: inout PasswordSessionArchive) {
        if let pds = pdsEndpoint(inDIDDocument: fields["didDoc"], did: archive.did.rawValue) {
            archive.pdsEndpoint = pds
        }
        if let email = fields["email"]?.stringValue { archive.email = email }
        if case .bool(let active) = fields["active"] { archive.active = active }
        if fields["active"] != nil { archive.status = fields["status"]?.stringValue }
    }

    /// The `serviceEndpoint` of the `#atproto_pds` service in a DID document, when it is an http(s) URL.
    static func pdsEndpoint(inDIDDocument document: JSONValue?, did: String) -> URL? {
        guard case .array(let services) = document?.objectValue?["service"] else { return nil }
        for service in services {
            guard let fields = service.objectValue, let id = fields["id"]?.stringValue,
                id == "#atproto_pds" || id == did + "#atproto_pds",
                let endpoint = fields["serviceEndpoint"]?.stringValue, let url = URL(string: endpoint),
                let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil
            else { continue }
            return url
        }
        return nil
    }

    private static func object(in response: XRPCResponse, nsid: NSID) throws(PasswordSessionError) -> [String:
        JSONValue]
    {
        guard let json = try? JSONValue.parse(response.body), let fields = json.objectValue else {
            throw PasswordSessionError(
                .invalidResponse,
                message: "\(nsid) answered \(response.status) with a body that is not a JSON object "
                    + "(\(response.body.count) bytes)")
        }
        return fields
    }

    private static func string(_ name: String, in fields: [String: JSONValue], nsid: NSID)
        throws(PasswordSessionError) -> String
    {
        guard let value = fields[name]?.stringValue, !value.isEmpty else {
            throw PasswordSessionError(
                .invalidResponse, message: "\(nsid) answered without a string \"\(name)\"")
        }
        return value
    }
}
