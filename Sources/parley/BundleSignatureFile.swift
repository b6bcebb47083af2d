import ParleyCore
import ParleyCrypto

/// The detached signature file `bundle.json.sig`: canonical JSON
/// `{"algorithm":"ed25519","digest":"sha256:<hex>","keyId":"…","signature":"<base64>"}`
/// plus a newline. `digest` is SHA-256 of the bundle's canonical JSON bytes;
/// `signature` is Ed25519 over those 32 digest bytes.
enum BundleSignatureFile {
    /// The file's bytes.
    static func encode(_ signature: BundleSignature) -> [UInt8] {
        let object: JSONValue = [
            "algorithm": .string(BundleSignature.algorithm), "digest": .string(signature.digestLabel),
            "keyId": .string(signature.keyId), "signature": .string(Base64.encode(signature.signature)),
        ]
        return CanonicalJSON.encode(object) + [0x0A]
    }

    /// Parses a signature file, naming the path and the member that is wrong.
    static func decode(_ value: JSONValue, path: String) throws(BundleFailure) -> BundleSignature {
        func member(_ key: String) throws(BundleFailure) -> String {
            guard let text = value[key]?.stringValue else {
                throw .input("\(path) has no string \"\(key)\"; is it a parley signature file?")
            }
            return text
        }
        let algorithm = try member("algorithm")
        guard algorithm == BundleSignature.algorithm else {
            throw .input("\(path) uses algorithm \"\(algorithm)\"; only \"ed25519\" is supported")
        }
        let keyId = try member("keyId")
        let digestText = try member("digest")
        let signatureText = try member("signature")
        let digest: [UInt8]
        let signature: [UInt8]
        do {
            digest = try BundleSignature.digest(fromLabel: digestText)
        } catch {
            throw .input("\(path): \"digest\" is malformed: \(error)")
        }
        do {
            signature = try Base64.decode(signatureText)
        } catch {
            throw .input("\(path): \"signature\" is not valid base64 (truncated or corrupted?): \(error)")
        }
        return BundleSignature(keyId: keyId, digest: digest, signature: signature)
    }
}
