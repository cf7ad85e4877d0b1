import AtprotoCrypto
import Foundation
import FuzzDriver
import XRPCRuntime

@testable import AtprotoIdentityResolution

/// DID documents, public keys, signatures and DNS answers.
let identityTargets: [FuzzTarget] = [
    FuzzTarget("did-document", "DIDDocument(jsonData:): handle, PDS, services and the signing key") { bytes in
        guard let document = try? DIDDocument(jsonData: Data(bytes)) else { return }
        _ = document.handle
        _ = document.pdsEndpoint
        _ = document.service(fragment: "atproto_pds")
        _ = try? document.signingKey()
        for method in document.verificationMethods.prefix(16) { _ = try? method.publicKey() }
        _ = document.jsonValue.serialized()
    },
    FuzzTarget("multikey", "AtprotoPublicKey(multikey:), (didKey:), (legacyType:multibase:); keys print back the same")
    {
        bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        if let key = try? AtprotoPublicKey(multikey: text) {
            fuzzCheck((try? AtprotoPublicKey(multikey: key.multikey)) == key, "multikey round trip changed the key")
        }
        if let key = try? AtprotoPublicKey(didKey: text) {
            fuzzCheck((try? AtprotoPublicKey(didKey: key.didKey)) == key, "did:key round trip changed the key")
        }
        for type in ["EcdsaSecp256k1VerificationKey2019", "EcdsaSecp256r1VerificationKey2019"] {
            _ = try? AtprotoPublicKey(legacyType: type, multibase: text)
        }
    },
    FuzzTarget(
        "signature",
        "AtprotoPublicKey(sec1:) and isValidSignature: [curve][key length][key][signature length][signature][message]"
    ) { bytes in
        var input = FuzzInput(bytes)
        let curve: AtprotoKeyCurve = input.byte() & 1 == 0 ? .p256 : .secp256k1
        let keyBytes = input.take(Int(input.byte() % 66))
        let signature = input.take(64 + Int(input.byte() % 4) - 2)
        let message = input.rest()
        guard let key = try? AtprotoPublicKey(sec1: keyBytes, curve: curve) else { return }
        _ = key.isValidSignature(signature, for: message)
        _ = key.isValidSignature(signature, forDigest: message.prefix(32))
    },
    FuzzTarget("dns", "DNSResponse.parse of a TXT answer to _atproto.fuzz.example (ID from the first two bytes)") {
        bytes in
        guard bytes.count >= 2, let name = try? DNSName(validating: "_atproto.fuzz.example") else { return }
        let query = DNSQuery(name: name, id: UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
        _ = try? DNSResponse.parse(bytes, for: query)
        _ = try? DNSResponse.parse(bytes, for: query, allowTruncated: false)
    },
]
