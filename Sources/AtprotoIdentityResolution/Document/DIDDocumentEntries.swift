import AtprotoCrypto
import AtprotoData
import Foundation

extension DIDDocument {
    /// One entry of `verificationMethod`: a public key and who controls it.
    public struct VerificationMethod: Sendable, Hashable {
        /// The method's id: `#atproto` or `<did>#atproto` for the atproto signing key.
        public var id: String
        /// The key type: `Multikey`, or a legacy `EcdsaSecp256k1VerificationKey2019` /
        /// `EcdsaSecp256r1VerificationKey2019`.
        public var type: String
        /// The DID that controls the key.
        public var controller: String
        /// The key, multibase-encoded, when the method carries one in that form.
        public var publicKeyMultibase: String?
        /// Every field of the entry as read.
        public var fields: [String: JSONValue]

        /// Creates a method from its parts.
        public init(id: String, type: String, controller: String, publicKeyMultibase: String?) {
            self.id = id
            self.type = type
            self.controller = controller
            self.publicKeyMultibase = publicKeyMultibase
            var fields: [String: JSONValue] = [
                "id": .string(id), "type": .string(type), "controller": .string(controller),
            ]
            if let publicKeyMultibase { fields["publicKeyMultibase"] = .string(publicKeyMultibase) }
            self.fields = fields
        }

        init(json: JSONValue, path: String) throws(DIDDocumentError) {
            guard let object = json.objectValue else {
                throw DIDDocumentError(.typeMismatch, path: path, message: "expected an object, found \(json.kindName)")
            }
            id = try requiredString(object, "id", path: path)
            type = try requiredString(object, "type", path: path)
            controller = try requiredString(object, "controller", path: path)
            publicKeyMultibase = try optionalString(object, "publicKeyMultibase", path: path)
            fields = object
        }

        /// The method's key.
        ///
        /// - Throws: `AtprotoPublicKeyError` for a type atproto does not sign with, a missing or badly
        ///   encoded `publicKeyMultibase`, or a point that is not on the curve.
        public func publicKey() throws(AtprotoPublicKeyError) -> AtprotoPublicKey {
            guard let multibase = publicKeyMultibase else {
                throw AtprotoPublicKeyError(
                    .unsupportedEncoding, message: "verification method \(id) has no publicKeyMultibase")
            }
            if type == "Multikey" { return try AtprotoPublicKey(multikey: multibase) }
            return try AtprotoPublicKey(legacyType: type, multibase: multibase)
        }
    }

    /// One entry of `service`: a network endpoint of the subject.
    public struct Service: Sendable, Hashable {
        /// The service's id: `#atproto_pds` or `<did>#atproto_pds` for the PDS.
        public var id: String
        /// The service type (`AtprotoPersonalDataServer` for a PDS).
        public var type: String
        /// The endpoint: usually a URL string; DID Core also allows a map or a set.
        public var serviceEndpoint: JSONValue
        /// Every field of the entry as read.
        public var fields: [String: JSONValue]

        /// Creates a service whose endpoint is a URL string.
        public init(id: String, type: String, endpoint: String) {
            self.id = id
            self.type = type
            self.serviceEndpoint = .string(endpoint)
            self.fields = ["id": .string(id), "type": .string(type), "serviceEndpoint": .string(endpoint)]
        }

        init(json: JSONValue, path: String) throws(DIDDocumentError) {
            guard let object = json.objectValue else {
                throw DIDDocumentError(.typeMismatch, path: path, message: "expected an object, found \(json.kindName)")
            }
            id = try requiredString(object, "id", path: path)
            type = try requiredString(object, "type", path: path)
            guard let endpoint = object["serviceEndpoint"] else {
                throw DIDDocumentError(.missingField, path: path + ".serviceEndpoint", message: "missing")
            }
            serviceEndpoint = endpoint
            fields = object
        }

        /// The endpoint as a URL, when it is a string holding an `http` or `https` URL with a host and
        /// nothing after the path (no query, no fragment).
        public var endpointURL: URL? {
            guard let text = serviceEndpoint.stringValue, let components = URLComponents(string: text),
                let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
                let host = components.host, !host.isEmpty,
                components.query == nil, components.fragment == nil, components.user == nil
            else { return nil }
            return components.url
        }
    }
}

private func requiredString(_ object: [String: JSONValue], _ key: String, path: String) throws(DIDDocumentError)
    -> String
{
    guard let value = object[key] else {
        throw DIDDocumentError(.missingField, path: "\(path).\(key)", message: "missing")
    }
    guard let text = value.stringValue else {
        throw DIDDocumentError(
            .typeMismatch, path: "\(path).\(key)", message: "expected a string, found \(value.kindName)")
    }
    return text
}

private func optionalString(_ object: [String: JSONValue], _ key: String, path: String) throws(DIDDocumentError)
    -> String?
{
    guard let value = object[key], value != .null else { return nil }
    guard let text = value.stringValue else {
        throw DIDDocumentError(
            .typeMismatch, path: "\(path).\(key)", message: "expected a string, found \(value.kindName)")
    }
    return text
}
