import Foundation
import ParleyCore
import Testing

/// Issue 8, the operator's and CI's path: `parley token create`, `parley keygen`,
/// `parley key add` and `parley publish` against a live server.
@Suite(.timeLimit(.minutes(10))) struct CommandLineScenarioTests {
    @Test func ciPublishesWithTheCommandLineTools() async throws {
        try await ServiceHarness.run { service in
            let suffix = UUID().uuidString.prefix(8).lowercased()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-ci-\(suffix)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let keyPath = directory.appendingPathComponent("ci.key").path
            let publicPath = directory.appendingPathComponent("ci.pub").path

            let token = try ParleyCommand.run(["token", "create", "--name", "ci-\(suffix)", "--scope", "publish"])
            try #require(token.status == 0, "\(token.stderr)")
            let secret = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(secret.hasPrefix("pt_") && !secret.contains("\n"), "prints only the token: \(token.stdout)")
            let duplicate = try ParleyCommand.run(["token", "create", "--name", "ci-\(suffix)", "--scope", "publish"])
            #expect(duplicate.status != 0, "a second active token with the same name is refused")
            let keygen = try ParleyCommand.run(["keygen", "--out", keyPath])
            try #require(keygen.status == 0, "\(keygen.stderr)")
            let keyId = "ci-\(suffix)"
            let trusted = try ParleyCommand.run(["key", "add", "--id", keyId, "--pubkey", publicPath])
            try #require(trusted.status == 0, "\(trusted.stderr)")

            let ids = [FlowFixture.uniqueId("cli-a"), FlowFixture.uniqueId("cli-b")]
            let bundle = try BundleScenarioTests.bundle(
                [FlowFixture.quickReplies(id: ids[0]), FlowFixture.branching(id: ids[1])], commit: "cli-\(suffix)")
            let bundlePath = directory.appendingPathComponent("bundle.json").path
            try Data(CanonicalJSON.encode(bundle)).write(to: URL(fileURLWithPath: bundlePath))
            let server = "http://127.0.0.1:\(service.servers[0].port)"
            let publish = [
                "publish", bundlePath, "--server", server, "--token", secret, "--key", keyPath, "--key-id", keyId,
            ]
            let first = try ParleyCommand.run(publish)
            #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
            for id in ids {
                let screen = try service.screen(id, core: "1.2.0")
                #expect(screen.status == 200 && screen.header("Parley-Flow-Version") == "1", "\(id): \(screen)")
            }
            let again = try ParleyCommand.run(publish)
            #expect(again.status == 0, "re-publishing is a no-op: \(again.stderr)")
            let wrongKeyId = try ParleyCommand.run(Array(publish.dropLast()) + ["someone-else-\(suffix)"])
            #expect(wrongKeyId.status != 0, "an untrusted key id fails the command")
            #expect(
                wrongKeyId.stderr.contains("422") || wrongKeyId.stderr.contains("untrusted"), "\(wrongKeyId.stderr)")
            let noToken = try ParleyCommand.run(Array(publish.prefix(4)) + ["--token", "pt_bogus"] + publish.suffix(4))
            #expect(noToken.status != 0, "a bogus token fails the command")
            for id in ids {
                let releases = try service.client.send(
                    "GET", "/v1/flows/\(id)/releases", headers: [ServiceHarness.bearer(secret)])
                #expect(releases.json["items"]?.arrayValue?.count == 1, "\(releases)")
            }
        }
    }
}
