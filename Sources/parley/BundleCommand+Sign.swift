import ArgumentParser
import Foundation
import ParleyCore
import ParleyCrypto

extension BundleCommand {
    /// `parley bundle sign`: write a detached Ed25519 signature beside a bundle.
    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a bundle's digest with an Ed25519 key; writes <bundle>.sig.",
            discussion: """
                The digest is SHA-256 of the bundle's canonical JSON, so re-indenting the file does not
                change it. The signature file is JSON:
                {"algorithm":"ed25519","digest":"sha256:<hex>","keyId":"<id>","signature":"<base64>"}
                """)

        @Option(help: "PEM private key (from parley keygen).")
        var key: String

        @Option(help: "Key id the server knows the matching public key by.")
        var keyId: String

        @Option(help: "Where to write the signature (default: <bundle>.sig).")
        var out: String?

        @Argument(help: "The bundle file.")
        var bundle: String

        func validate() throws {
            guard !keyId.isEmpty else { throw ValidationError("--key-id must not be empty") }
        }

        func run() async throws {
            let canonical = try BundleCanonical.bytes(ofBundleAt: bundle)
            let privateKey: Ed25519PrivateKey
            do {
                privateKey = try Ed25519PrivateKey(pem: try BundleFiles.readText(key))
            } catch let error as CryptoError {
                throw BundleFailure.input("\(key): \(error)")
            }
            let signature = try BundleSignature.sign(canonicalBytes: canonical, keyId: keyId, with: privateKey)
            let path = out ?? bundle + ".sig"
            try BundleFiles.write(BundleSignatureFile.encode(signature), to: path)
            print(signature.digestLabel)
            FileHandle.standardError.write(Data("wrote \(path) (key id \(keyId))\n".utf8))
        }
    }
}
