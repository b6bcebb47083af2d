import ArgumentParser
import Foundation
import ParleyCore
import ParleyCrypto

/// `parley release`: make a version live, for everyone or a stable share of new sessions
/// (DESIGN.md "Staged rollouts"), or halt a rollout, from a terminal.
struct ReleaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Release a flow version (POST /v1/flows/{id}/releases), optionally to a percentage of new sessions.",
        discussion: """
            parley release --flow passport-intake --version 2 --percent 5    # try v2 on 5% of new sessions
            parley release --flow passport-intake --version 2                # everyone
            parley release --flow passport-intake --halt 17                  # stop release 17's rollout
            """)

    @Option(help: "The flow's id.")
    var flow: String

    @Option(help: "The version to release.")
    var version: Int?

    @Option(help: "Share of new sessions (1 to 100) that get the version; the rest keep the full release.")
    var percent: Int = 100

    @Option(help: "Channel (default: the server's default channel).")
    var channel: String?

    @Option(help: "Halt this partial release instead of releasing.")
    var halt: Int?

    @Option(help: "Base URL of the server, e.g. http://127.0.0.1:8080.")
    var server: String

    @Option(help: "API token with the publish scope (default: $PARLEY_TOKEN).")
    var token: String?

    func validate() throws {
        guard (version == nil) != (halt == nil) else {
            throw ValidationError("Give exactly one of --version and --halt.")
        }
        guard (1...100).contains(percent) else { throw ValidationError("--percent must be from 1 to 100.") }
    }

    func run() async throws {
        guard let token = token ?? ProcessInfo.processInfo.environment["PARLEY_TOKEN"], !token.isEmpty else {
            throw ValidationError("Give --token or set PARLEY_TOKEN.")
        }
        let server: ServerRequest
        do {
            server = try ServerRequest(base: self.server, token: token)
        } catch {
            throw ValidationError("--server must be an http:// or https:// URL: \(error)")
        }
        let releases = "/v1/flows/\(Self.pathSegment(flow))/releases"
        let status: Int
        let text: String
        if let halt {
            (status, text) = try server.post(releases + "/\(halt)/halt")
        } else {
            var body = JSONObject()
            body["version"] = .number(JSONNumber(version ?? 0))
            body["percent"] = .number(JSONNumber(percent))
            if let channel { body["channel"] = .string(channel) }
            (status, text) = try server.post(
                releases, headers: ["Content-Type": "application/json"], body: CanonicalJSON.encode(.object(body)))
        }
        guard status == 200 || status == 201 else {
            FileHandle.standardError.write(Data("release failed: HTTP \(status)\n\(text)\n".utf8))
            throw ExitCode(1)
        }
        print(text)
    }

    /// `text` as one path segment: RFC 3986 unreserved characters kept, every other byte
    /// percent-encoded, so a flow id can never add a segment or a query.
    static func pathSegment(_ text: String) -> String {
        var segment = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                segment.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                segment += "%" + Hex.encode([byte]).uppercased()
            }
        }
        return segment
    }
}
