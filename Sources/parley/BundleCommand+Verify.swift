import ArgumentParser
import ParleyCore
import ParleyCrypto

extension BundleCommand {
    /// `parley bundle verify`: check a bundle against its detached signature.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a bundle's detached signature with a public key; exit 0 when valid.")

        @Option(help: "PEM public key (e.g. ci.pub from parley keygen).")
        var pubkey: String

        @Option(help: "The signature file (default: <bundle>.sig).")
        var signature: String?

        @Option(help: "Also require the signature's key id to be this one.")
        var keyId: String?

        @Argument(help: "The bundle file.")
        var bundle: String

        func run() async throws {
            let signaturePath = signature ?? bundle + ".sig"
            let publicKey: Ed25519PublicKey
            do {
                publicKey = try Ed25519PublicKey(pem: try BundleFiles.readText(pubkey))
            } catch let error as CryptoError {
                throw BundleFailure.input("\(pubkey): \(error)")
            }
            let detached = try BundleSignatureFile.decode(try BundleFiles.readJSON(signaturePath), path: signaturePath)
            if let keyId, !keyId.isScalarEqual(to: detached.keyId) {
                throw BundleFailure.verification(
                    "\(signaturePath) was made with key id \"\(detached.keyId)\", expected \"\(keyId)\"")
            }
            let canonical = try BundleCanonical.bytes(ofBundleAt: bundle)
            do {
                try detached.verify(canonicalBytes: canonical, with: publicKey)
            } catch {
                throw BundleFailure.verification("\(bundle) does not verify against \(signaturePath): \(error)")
            }
            print("OK \(detached.digestLabel) signed by key id \"\(detached.keyId)\"")
        }
    }
}
