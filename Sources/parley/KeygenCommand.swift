import ArgumentParser
import Foundation
import ParleyCrypto

/// `parley keygen`: Create an Ed25519 signing key pair.
struct KeygenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen", abstract: "Create an Ed25519 signing key pair.",
        discussion: """
            Writes the PKCS #8 PEM private key to --out with mode 0600 and the SPKI PEM public key
            beside it (ci.key -> ci.pub; any other name gets .pub appended). Never overwrites.
            """)

    @Option(help: "Where to write the private key, e.g. ci.key.")
    var out: String

    /// The public key's path for a private key path.
    static func publicPath(for privatePath: String) -> String {
        privatePath.hasSuffix(".key") ? String(privatePath.dropLast(4)) + ".pub" : privatePath + ".pub"
    }

    func run() async throws {
        let publicPath = Self.publicPath(for: out)
        for path in [out, publicPath] where BundleFiles.exists(path) {
            throw BundleFailure.input("\(path) already exists; refusing to overwrite a key")
        }
        let key = try Ed25519PrivateKey.generate()
        let publicKey = try key.publicKey
        try BundleFiles.writePrivate(Array(try key.pemRepresentation.utf8), to: out)
        try BundleFiles.write(Array(try publicKey.pemRepresentation.utf8), to: publicPath)
        print("wrote \(out) (private, mode 0600) and \(publicPath)")
        print("public key (raw, base64): \(Base64.encode(publicKey.rawRepresentation))")
    }
}
