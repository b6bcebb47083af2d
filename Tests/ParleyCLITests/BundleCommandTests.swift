import Foundation
import ParleyCore
import Testing

/// `parley bundle build/sign/verify/show` and `parley keygen`, run as CI would.
@Suite(.timeLimit(.minutes(10))) struct BundleCommandTests {
    static let designerFlow = """
        {"schema": "parley.flow/1", "id": "designer-flow", "title": "Designer", "start": "a",
         "steps": [{"id": "a", "next": [], "screen": {"id": "a", "root": {"type": "vstack", "id": "root",
           "children": [{"type": "text", "id": "hello", "properties": {"text": "Hello"}}]}}}]}
        """

    /// A fresh flows folder with `json/<name>` files.
    func flowsFolder(_ files: [String: String] = ["designer.json": designerFlow]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parley-flows-\(UUID().uuidString)")
        let json = folder.appendingPathComponent("json")
        try FileManager.default.createDirectory(at: json, withIntermediateDirectories: true)
        for (name, contents) in files { try Data(contents.utf8).write(to: json.appendingPathComponent(name)) }
        return folder.path
    }

    func build(_ flows: String, out: String) throws -> ParleyBinary.Result {
        try ParleyBinary.run([
            "bundle", "build", "--flows", flows, "--channel", "production", "--commit", "abc123", "--out", out,
        ])
    }

    func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func buildIsDeterministicAndOrdered() throws {
        let flows = try flowsFolder()
        let first = try build(flows, out: flows + "/one.json")
        let second = try build(flows, out: flows + "/two.json")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("sha256:") && first.stdout.count == "sha256:".count + 64 + 1)
        #expect(first.stdout == second.stdout)
        #expect(try bytes(flows + "/one.json") == bytes(flows + "/two.json"))
        let bundle = try Bundle.decode(try bytes(flows + "/one.json"))
        #expect(bundle.channel == "production")
        #expect(bundle.source["commit"] == "abc123")
        #expect(bundle.flows.map(\.id) == ["passport-intake", "chat-support", "delivery-address", "designer-flow"])
        let file = try bytes(flows + "/one.json")
        #expect(file == CanonicalJSON.encode(try JSONParser.parse(file)), "the file is canonical JSON")
        let designer = try JSONParser.parse(file)["flows"]?.arrayValue?.last
        #expect(designer == (try JSONParser.parse(Self.designerFlow)), "JSON flows are included as they are")
    }

    @Test func changingOneStringChangesTheDigest() throws {
        let original = try build(try flowsFolder(), out: NSTemporaryDirectory() + "/b-\(UUID().uuidString).json")
        let edited = try flowsFolder([
            "designer.json": Self.designerFlow.replacingOccurrences(of: "Hello", with: "Hallo")
        ])
        let changed = try build(edited, out: edited + "/b.json")
        #expect(original.status == 0 && changed.status == 0)
        #expect(original.stdout != changed.stdout)
    }

    @Test func refusesFlowsWithProblems() throws {
        let broken = #"{"schema": "parley.flow/1", "id": "broken", "steps": []}"#
        let flows = try flowsFolder(["a.json": Self.designerFlow, "b.json": broken, "c.json": Self.designerFlow])
        let result = try build(flows, out: flows + "/bundle.json")
        #expect(result.status != 0)
        #expect(result.stderr.contains("refusing to build a bundle"))
        #expect(result.stderr.contains("b.json"), "names the file with the problem")
        #expect(result.stderr.contains("/start"), "names the JSON pointer")
        #expect(result.stderr.contains("duplicateFlowId"), "a.json and c.json share an id")
        #expect(!FileManager.default.fileExists(atPath: flows + "/bundle.json"))
        let notJSON = try flowsFolder(["x.json": "{"])
        let parse = try build(notJSON, out: notJSON + "/bundle.json")
        #expect(parse.status != 0 && parse.stderr.contains("x.json is not valid JSON"))
    }

    @Test func keygenWritesAPrivateKeyOnlyTheOwnerCanRead() throws {
        let folder = try flowsFolder([:])
        let result = try ParleyBinary.run(["keygen", "--out", folder + "/ci.key"])
        #expect(result.status == 0, "\(result.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/ci.key")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(String(decoding: try bytes(folder + "/ci.key"), as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(String(decoding: try bytes(folder + "/ci.pub"), as: UTF8.self).hasPrefix("-----BEGIN PUBLIC KEY-----"))
        let again = try ParleyBinary.run(["keygen", "--out", folder + "/ci.key"])
        #expect(again.status != 0 && again.stderr.contains("already exists"))
    }

    @Test func signThenVerifyAndRejectTampering() throws {
        let folder = try flowsFolder()
        let bundle = folder + "/bundle.json"
        #expect(try build(folder, out: bundle).status == 0)
        #expect(try ParleyBinary.run(["keygen", "--out", folder + "/ci.key"]).status == 0)
        #expect(try ParleyBinary.run(["keygen", "--out", folder + "/other.key"]).status == 0)
        let sign = try ParleyBinary.run(["bundle", "sign", "--key", folder + "/ci.key", "--key-id", "ci", bundle])
        #expect(sign.status == 0, "\(sign.stderr)")
        let signature = try JSONParser.parse(try bytes(bundle + ".sig"))
        #expect(signature["algorithm"] == "ed25519" && signature["keyId"] == "ci")
        #expect(signature["digest"]?.stringValue == sign.stdout.trimmingCharacters(in: .whitespacesAndNewlines))

        let verify = { (arguments: [String]) in try ParleyBinary.run(["bundle", "verify"] + arguments) }
        let ok = try verify(["--pubkey", folder + "/ci.pub", bundle])
        #expect(ok.status == 0 && ok.stdout.hasPrefix("OK sha256:"), "\(ok.stderr)")

        // Whitespace does not matter (the digest covers canonical JSON) ...
        let text = String(decoding: try bytes(bundle), as: UTF8.self)
        try Data(text.replacingOccurrences(of: ",\"", with: ",\n  \"").utf8).write(
            to: URL(fileURLWithPath: bundle + ".pretty"))
        let pretty = try verify(["--pubkey", folder + "/ci.pub", "--signature", bundle + ".sig", bundle + ".pretty"])
        #expect(pretty.status == 0, "\(pretty.stderr)")

        // ... content does: one byte changed inside a string.
        var altered = try bytes(bundle)
        let index = altered.firstIndex(of: UInt8(ascii: "H"))!
        altered[index] = UInt8(ascii: "J")
        try Data(altered).write(to: URL(fileURLWithPath: bundle + ".altered"))
        let tampered = try verify(["--pubkey", folder + "/ci.pub", "--signature", bundle + ".sig", bundle + ".altered"])
        #expect(tampered.status != 0 && tampered.stderr.contains("changed after signing"), "\(tampered.stderr)")

        // One byte changed so it is no longer JSON.
        altered = try bytes(bundle)
        altered[0] = UInt8(ascii: "[")
        try Data(altered).write(to: URL(fileURLWithPath: bundle + ".broken"))
        let broken = try verify(["--pubkey", folder + "/ci.pub", "--signature", bundle + ".sig", bundle + ".broken"])
        #expect(broken.status != 0 && broken.stderr.contains("not valid JSON"), "\(broken.stderr)")

        let wrongKey = try verify(["--pubkey", folder + "/other.pub", bundle])
        #expect(wrongKey.status != 0 && wrongKey.stderr.contains("does not verify with this public key"))

        let wrongId = try verify(["--pubkey", folder + "/ci.pub", "--key-id", "release", bundle])
        #expect(wrongId.status != 0 && wrongId.stderr.contains("expected \"release\""))

        for (cut, message) in [(44, "has 33 bytes"), (43, "not valid base64")] {
            var object = signature.objectValue!
            object["signature"] = .string(String(signature["signature"]!.stringValue!.prefix(cut)))
            try Data(CanonicalJSON.encode(.object(object))).write(to: URL(fileURLWithPath: bundle + ".sig"))
            let truncated = try verify(["--pubkey", folder + "/ci.pub", bundle])
            #expect(truncated.status != 0 && truncated.stderr.contains(message), "\(truncated.stderr)")
            #expect(truncated.stderr.contains("truncated"))
        }
    }

    @Test func showListsAndPrintsCompiledFlows() throws {
        let list = try ParleyBinary.run(["bundle", "show"])
        #expect(list.stdout == "passport-intake\nchat-support\ndelivery-address\n")
        let flow = try ParleyBinary.run(["bundle", "show", "chat-support"])
        #expect(try Flow.decode(flow.stdout).id == "chat-support")
        let missing = try ParleyBinary.run(["bundle", "show", "nope"])
        #expect(missing.status != 0 && missing.stderr.contains("known: passport-intake"))
    }

    /// The README's preview: a compiled flow's JSON piped into `parley render` for a 1.0 core.
    @Test func showPipesIntoRender() throws {
        let flow = try ParleyBinary.run(["bundle", "show", "chat-support"])
        let render = try ParleyBinary.run(["render", "-", "--step", "topic", "--core", "1.0.0"], stdin: flow.stdout)
        #expect(render.status == 0, "\(render.stderr)")
        let gated = try JSONParser.parse(render.stdout)
        let types = gated["screen"]?["root"]?["children"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
        #expect(types == ["text", "picker", "button"], "quickReplies falls back to a picker on 1.0")
    }
}
