import Foundation
import FuzzDriver
import XRPCRuntime

/// The data model's parsers: JSON, DAG-CBOR, CAR.
let dataModelTargets: [FuzzTarget] = [
    FuzzTarget("json", "JSONValue.parse; what parses serializes and parses back to the same value") { bytes in
        guard let value = try? JSONValue.parse(bytes) else { return }
        let text = value.serialized()
        do {
            let again = try JSONValue.parse(text)
            fuzzCheck(again == value, "JSON round trip changed the value")
        } catch {
            fuzzCheck(false, "serialized JSON does not parse: \(error)")
        }
        _ = try? AtprotoDataModelValue(json: value)
    },
    FuzzTarget("dagcbor", "DAGCBOR.decode; what decodes encodes back to the same bytes") { bytes in
        guard let value = try? DAGCBOR.decode(bytes) else { return }
        fuzzCheck(DAGCBOR.encode(value) == bytes, "DAG-CBOR decode then encode changed the bytes")
        let json = value.json
        _ = json.serialized()
    },
    FuzzTarget("car", "CARFile(reading:) with and without hash checks; encoded() reads back the same") { bytes in
        _ = try? CARFile(reading: bytes)
        guard let car = try? CARFile(reading: bytes, verifyingHashes: false) else { return }
        do {
            let again = try CARFile(reading: car.encoded(), verifyingHashes: false)
            fuzzCheck(again == car, "CAR encode then read changed the file")
        } catch {
            fuzzCheck(false, "an encoded CAR does not read back: \(error)")
        }
        for block in car.blocks.prefix(64) { _ = try? DAGCBOR.decode(block.bytes) }
    },
]

/// A planted bug, for `scripts/fuzz.sh selftest`: proves that coverage feedback and crash reports work.
/// The fuzzer must find the DAG-CBOR text "bug!" (each byte checked in a function of its own, so the
/// optimizer cannot merge the checks into one compare); the self-test seeds it with "buga".
let plantedTarget = FuzzTarget("planted", "self-test: crashes on the DAG-CBOR text \"bug!\" (must be found)") { bytes in
    guard case .string(let text)? = try? DAGCBOR.decode(bytes) else { return }
    let utf8 = Array(text.utf8)
    guard utf8.count == 4 else { return }
    plantedFirst(utf8)
}

@inline(never) private func plantedFirst(_ utf8: [UInt8]) { if utf8[0] == 0x62 { plantedSecond(utf8) } }
@inline(never) private func plantedSecond(_ utf8: [UInt8]) { if utf8[1] == 0x75 { plantedThird(utf8) } }
@inline(never) private func plantedThird(_ utf8: [UInt8]) { if utf8[2] == 0x67 { plantedFourth(utf8) } }
@inline(never) private func plantedFourth(_ utf8: [UInt8]) {
    if utf8[3] == 0x21 { fuzzCheck(false, "the planted bug was found") }
}
