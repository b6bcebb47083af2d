import ArgumentParser
import Foundation
import ParleyCrypto
import ParleyServer

/// `parley key` (or `keys`): trusted bundle-signing keys and the data key.
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key", abstract: "Manage trusted bundle signing keys and rotate the data key.",
        subcommands: [Add.self, RotateData.self], aliases: ["keys"])

    /// `parley key add --id ci --pubkey ci.pub`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Trust an Ed25519 public key (PEM) for bundles signed with this key id.")

        @Option(help: "The key id CI signs with (Parley-Signature keyId).")
        var id: String

        @Option(help: "Path of the PEM public key (from `parley keygen`).")
        var pubkey: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let pem: String
            do {
                pem = try String(contentsOfFile: pubkey, encoding: .utf8)
            } catch {
                throw ValidationError("Cannot read \(pubkey): \(error.localizedDescription)")
            }
            let key: Ed25519PublicKey
            do {
                key = try Ed25519PublicKey(pem: pem)
            } catch {
                throw ValidationError("\(pubkey) is not an Ed25519 public key: \(error)")
            }
            let pool = try database.makePool(maximumConnections: 1)
            defer { pool.shutdown() }
            guard try await AccessStore(pool: pool).addSigningKey(keyId: id, publicKey: key) else {
                throw ValidationError(
                    "Key id '\(id)' is already trusted with a different key (or this key has another id).")
            }
            print("trusted key \(id)")
        }
    }
}
