import ArgumentParser
import Foundation
import ParleyCore
import ParleyCrypto
import ParleyHTTP

/// `parley publish`: sign a bundle and upload it (DESIGN.md "Bundle").
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Sign a bundle and upload it to a Parley server (POST /v1/bundles).")

    @Argument(help: "The bundle file (from `parley bundle build`).")
    var bundle: String

    @Option(help: "Base URL of the server, e.g. http://127.0.0.1:8080.")
    var server: String

    @Option(help: "API token with the publish scope (default: $PARLEY_TOKEN).")
    var token: String?

    @Option(help: "PEM Ed25519 private key (from `parley keygen`).")
    var key: String

    @Option(help: "The key id the server trusts for this key.")
    var keyId: String

    func run() async throws {
        let progress = Progress(enabled: isatty(STDERR_FILENO) != 0)
        guard let token = token ?? ProcessInfo.processInfo.environment["PARLEY_TOKEN"], !token.isEmpty else {
            throw ValidationError("Give --token or set PARLEY_TOKEN.")
        }
        let server: ServerRequest
        do {
            server = try ServerRequest(base: self.server, token: token)
        } catch {
            throw ValidationError("--server must be an http:// or https:// URL: \(error)")
        }
        progress.say("reading \(bundle)")
        let bytes = try readFile(bundle)
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
            _ = try Bundle(json: document, at: .root)
        } catch {
            throw ValidationError("\(bundle) is not a Parley bundle: \(error)")
        }
        progress.say("signing with key \(keyId)")
        let privateKey = try Ed25519PrivateKey(pem: String(decoding: try readFile(key), as: UTF8.self))
        let canonical = CanonicalJSON.encode(document)
        let signature = try BundleSignature.sign(canonicalBytes: canonical, keyId: keyId, with: privateKey)
        let signatureHeader = "keyId=\"\(keyId)\", signature=\"\(Base64.encode(signature.signature))\""
        progress.say("uploading \(canonical.count) bytes to \(server.base)")
        let (status, text) = try server.post(
            "/v1/bundles", headers: ["Content-Type": "application/json", "Parley-Signature": signatureHeader],
            body: canonical)
        guard status == 200 || status == 201 else {
            FileHandle.standardError.write(Data("publish failed: HTTP \(status)\n\(text)\n".utf8))
            throw ExitCode(1)
        }
        progress.say(status == 201 ? "applied" : "already applied (no change)")
        print(text)
    }

    private func readFile(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("Cannot read \(path).")
        }
        return [UInt8](data)
    }
}

/// Progress lines on standard error, only when it is a terminal.
struct Progress {
    let enabled: Bool

    func say(_ line: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data("… \(line)\n".utf8))
    }
}
