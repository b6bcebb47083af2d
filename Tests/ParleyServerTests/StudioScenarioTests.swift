import Foundation
import ParleyCore
import ParleyStudio
import Testing

/// Issue 13: the studio's preview endpoint (gates an unsaved draft, stores nothing)
/// and the static page's safety headers and revalidation.
@Suite(.timeLimit(.minutes(10))) struct StudioScenarioTests {
    /// `{"flow": <document>, …}` as the body of a preview.
    static func previewBody(_ flow: String, _ members: String = "") -> String {
        #"{"flow": \#(flow)\#(members.isEmpty ? "" : ", " + members)}"#
    }

    @Test func previewGatesTheDraftForEveryCoreAndStoresNothing() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = FlowFixture.uniqueId("studio")
            let author = [ServiceHarness.bearer(service.author)]
            let all = try service.client.sendJSON(
                "POST", "/v1/flows/preview", Self.previewBody(FlowFixture.quickReplies(id: id), #""step": "welcome""#),
                headers: author)
            try #require(all.status == 200, "\(all)")
            let cores = try #require(all.json["cores"]?.arrayValue)
            #expect(cores.compactMap { $0["core"]?.stringValue } == ["1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0"])
            // 1.0 has no quickReplies: the picker fallback is served and the report says so.
            #expect(cores[0]["served"] == "step" && cores[0]["flow"]?.stringValue == id)
            #expect(cores[0]["screen"].map(CanonicalJSON.string)?.contains(#""type":"picker""#) == true, "\(cores[0])")
            #expect(cores[0]["report"]?.arrayValue?.first?["action"] == "substituted", "\(cores[0])")
            #expect(cores[2]["screen"].map(CanonicalJSON.string)?.contains(#""type":"quickReplies""#) == true)
            #expect(cores[2]["report"]?.arrayValue?.isEmpty == true && cores[2]["deferred"]?.arrayValue != nil)
            #expect(all.json["outcome"] == nil)

            // One core, with answers: the outcome, and where a valid answer leads.
            let branching = FlowFixture.branching(id: id)
            let one = try service.client.sendJSON(
                "POST", "/v1/flows/preview",
                Self.previewBody(
                    branching,
                    #""core": "1.0.0", "answers": {"email": "a@example.com", "emailAgain": "b@example.com", "purpose": "work"}"#
                ), headers: author)
            try #require(one.status == 200, "\(one)")
            #expect(one.json["cores"]?.arrayValue?.count == 1 && one.json["step"] == "details")
            #expect(
                one.json["cores"]?.arrayValue?.first?["deferred"]?.arrayValue?.isEmpty == false,
                "equalsField is deferred on 1.0")
            #expect(one.json["outcome"]?["valid"] == false, "the server still enforces the deferred rule: \(one)")
            #expect(one.json["outcome"]?["errors"]?.arrayValue?.first?["rule"] == "equalsField")
            let good = try service.client.sendJSON(
                "POST", "/v1/flows/preview",
                Self.previewBody(
                    branching,
                    #""answers": {"email": "a@example.com", "emailAgain": "a@example.com", "purpose": "work"}"#),
                headers: author)
            #expect(good.json["outcome"]?["valid"] == true && good.json["outcome"]?["next"] == "employer", "\(good)")

            // Nothing was stored.
            let stored = try service.client.send("GET", "/v1/flows/\(id)", headers: author)
            #expect(stored.status == 404, "\(stored)")
        }
    }

    @Test func previewRefusesDraftsThatDoNotLintAndBadRequests() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let author = [ServiceHarness.bearer(service.author)]
            let id = FlowFixture.uniqueId("studio")
            let duplicate = FlowFixture.branching(id: id).replacingOccurrences(
                of: #""fieldId": "emailAgain""#, with: #""fieldId": "email""#)
            let refused = try service.client.sendJSON(
                "POST", "/v1/flows/preview", Self.previewBody(duplicate), headers: author)
            #expect(refused.status == 422 && refused.problemType == "urn:parley:problem:lint-failed", "\(refused)")
            let codes = refused.json["problems"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
            #expect(codes.contains("duplicateFieldId"), "\(refused)")

            let flow = FlowFixture.branching(id: id)
            let noStep = try service.client.sendJSON(
                "POST", "/v1/flows/preview", Self.previewBody(flow, #""step": "nowhere""#), headers: author)
            #expect(noStep.status == 400 && noStep.text.contains("nowhere"), "\(noStep)")
            let badCore = try service.client.sendJSON(
                "POST", "/v1/flows/preview", Self.previewBody(flow, #""core": "one""#), headers: author)
            #expect(badCore.status == 400, "\(badCore)")
            let badLocale = try service.client.sendJSON(
                "POST", "/v1/flows/preview", Self.previewBody(flow, #""locale": "fr""#), headers: author)
            #expect(badLocale.status == 400 && badLocale.text.contains("locale"), "the flow declares no locales")
            let noFlow = try service.client.sendJSON("POST", "/v1/flows/preview", "{}", headers: author)
            #expect(noFlow.status == 400, "\(noFlow)")
            let publisher = try service.client.sendJSON(
                "POST", "/v1/flows/preview", Self.previewBody(flow), headers: [ServiceHarness.bearer(service.publisher)]
            )
            #expect(publisher.status == 403, "previews are for authors: \(publisher)")
            let anonymous = try service.client.sendJSON("POST", "/v1/flows/preview", Self.previewBody(flow))
            #expect(anonymous.status == 401, "\(anonymous)")
        }
    }

    @Test func studioPagesCarrySafetyHeadersAndRevalidate() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let client = service.client
            let root = try client.send("GET", "/")
            #expect(root.status == 302 && root.header("Location") == "/studio", "\(root)")
            for target in ["/studio", "/studio/flows/passport-intake", "/studio/flows/passport-intake/editor"] {
                let page = try client.send("GET", target)
                try #require(page.status == 200, "\(target): \(page)")
                #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
                #expect(page.text.contains(#"<script type="module" src="/studio/assets/app.js">"#))
                let policy = try #require(page.header("Content-Security-Policy"))
                #expect(!policy.contains("unsafe-inline") && !policy.contains("'unsafe-eval'"), "\(policy)")
                // WebAssembly (parley-core.wasm) may compile; JavaScript eval stays refused.
                #expect(
                    policy.contains("script-src 'self' 'wasm-unsafe-eval'") && policy.contains("default-src 'none'"))
                #expect(page.header("X-Content-Type-Options") == "nosniff")
                #expect(page.header("Referrer-Policy") == "no-referrer")
                let etag = try #require(page.header("ETag"))
                #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong ETag: \(etag)")
                let again = try client.send("GET", target, headers: [("If-None-Match", etag)])
                #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag, "\(again)")
            }
            let script = try client.send("GET", "/studio/assets/app.js")
            #expect(script.status == 200 && script.header("Content-Type")?.hasPrefix("text/javascript") == true)
            #expect(script.body == StudioAsset.named("app.js")?.bytes)
            let styles = try client.send("GET", "/studio/assets/studio.css")
            #expect(styles.header("Content-Type")?.hasPrefix("text/css") == true)
            #expect(styles.header("ETag") != script.header("ETag"))
            #expect(try client.send("GET", "/studio/assets/nothing.js").status == 404)
            let unknownView = try client.send("GET", "/studio/flows/passport-intake/nothing")
            #expect(unknownView.status == 404 && unknownView.problemType == "urn:parley:problem:not-found")
        }
    }

    /// `--core-module`: parley-core.wasm served from memory as `application/wasm` with a strong
    /// ETag and revalidation; without it a 404 that says the studio asks the server.
    @Test func theCoreModuleIsServedWhenTheServerHasOne() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let missing = try service.client.send("GET", "/studio/assets/parley-core.wasm")
            #expect(missing.status == 404 && missing.text.contains("--core-module"), "\(missing)")
        }
        let module: [UInt8] = [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00]
        try await ServiceHarness.run(inProcess: 1, configure: { $0.coreModule = module }) { service in
            let served = try service.client.send("GET", "/studio/assets/parley-core.wasm")
            #expect(served.status == 200 && served.body == module, "\(served)")
            #expect(served.header("Content-Type") == "application/wasm" && served.header("Cache-Control") == "no-cache")
            let etag = try #require(served.header("ETag"))
            let again = try service.client.send(
                "GET", "/studio/assets/parley-core.wasm", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty, "\(again)")
        }
    }

    /// The embedded assets are exactly `Sources/ParleyStudio/web` (run `deploy/studio-embed` after editing).
    @Test func embeddedAssetsMatchTheWebFolder() throws {
        let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Sources/ParleyStudio/web"
        ).standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: web.path).sorted()
        #expect(StudioAsset.all.map(\.name) == names)
        for name in names {
            var bytes = Array(try Data(contentsOf: web.appendingPathComponent(name)))
            if bytes.last != 0x0A { bytes.append(0x0A) }
            let embedded = StudioAsset.named(name)?.bytes == bytes
            #expect(embedded, "\(name) differs from its embedded copy: run deploy/studio-embed")
        }
    }
}
