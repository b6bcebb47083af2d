import Foundation
import ParleyCore
import ParleyCrypto
import Testing

/// Localized flows end to end (issue 17, DESIGN.md "Localization"): `Accept-Language` lookup,
/// lint of a missing translation, a session's fixed locale, and cached screens that never
/// cross locales or rollout buckets.
@Suite(.timeLimit(.minutes(10))) struct LocalizationScenarioTests {
    @Test func acceptLanguagePicksTheLocaleByLookupAndNeverFails() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.released(service, prefix: "lang")
            let cases: [(header: String?, locale: String)] = [
                ("fr-CA;q=0.9, en;q=0.5", "fr"), ("de", "en"), ("fr;q=abc", "en"), (nil, "en"), ("*", "en"),
                ("de, fr;q=0.2", "fr"), ("FR", "fr"),
            ]
            for (header, locale) in cases {
                let screen = try service.screen(
                    id, step: "purpose", core: "1.2.0", headers: header.map { [("Accept-Language", $0)] } ?? [])
                #expect(screen.status == 200, "\(header ?? "none"): \(screen)")
                #expect(screen.header("Content-Language") == locale, "\(header ?? "none")")
                #expect(screen.header("Vary") == "Parley-Core, Accept-Language")
                let label = screen.json["screen"]?.node("purpose")?["properties"]?["label"]
                #expect(label == (locale == "fr" ? "Motif" : "Purpose"), "\(header ?? "none"): \(label ?? .null)")
            }
            let summary = try service.client.send(
                "GET", "/v1/flows/\(id)", headers: [ServiceHarness.bearer(service.author)])
            #expect(summary.json["title"] == "Sign-up", "a localized title lists in the default locale: \(summary)")
            let plain = try SessionFixture.released(service, prefix: "plain")
            let unlocalized = try service.screen(plain, core: "1.2.0", headers: [("Accept-Language", "fr")])
            #expect(unlocalized.header("Content-Language") == nil && unlocalized.header("Vary") == "Parley-Core")
        }
    }

    @Test func aTranslationMissingOneLabelIsRefusedWithItsPointer() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            var table = Self.french
            table["Purpose"] = nil
            let refused = try service.postFlow(Self.localized(id: FlowFixture.uniqueId("missing"), french: table))
            #expect(refused.status == 422, "\(refused)")
            let problems = refused.json["problems"]?.arrayValue ?? []
            #expect(problems.map { $0["code"] } == ["missingLocale"], "\(problems)")
            #expect(problems.first?["pointer"] == "/steps/1/screen/root/children/0/properties/label")
        }
    }

    @Test func aSessionStartedInFrenchGetsFrenchMessagesOnEveryStep() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.released(service, prefix: "session")
            let started = try service.client.send(
                "POST", "/v1/sessions",
                headers: [
                    ("Content-Type", "application/json"), ("Parley-Core", "1.2.0"), ("Accept-Language", "fr-FR"),
                ],
                body: CanonicalJSON.encode(["flow": .string(id)]))
            try #require(started.status == 201, "\(started)")
            #expect(started.header("Content-Language") == "fr")
            var snapshot = started.json
            // Every step: an empty answer gets the French "required" message, then the walk goes on
            // (later requests carry no Accept-Language: the locale was fixed at start).
            let walk: [(step: String, answers: Answers)] = [
                ("email", ["email": "ada@example.com"]), ("purpose", ["purpose": "holiday"]),
                ("holiday", ["destination": "Lyon"]), ("confirm", ["emailAgain": "ada@example.com"]),
            ]
            for (step, answers) in walk {
                #expect(snapshot.step == step)
                let empty = try service.answer(snapshot, Answers())
                #expect(empty.status == 422, "\(step): \(empty)")
                let messages = empty.json["errors"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
                #expect(messages.contains("Obligatoire."), "\(step): \(messages)")
                #expect(!messages.contains("Required."), "\(step): \(messages)")
                if step == "confirm" {
                    let differs = try service.answer(snapshot, ["emailAgain": "bob@example.com"])
                    let text = differs.json["errors"]?.arrayValue?.first?["message"]
                    #expect(text == "Les e-mails diffèrent.", "\(differs)")
                }
                snapshot = try service.advance(snapshot, answers)
            }
            #expect(snapshot["status"] == "completed")
            #expect(snapshot["screen"]?["screen"]?.node("thanks")?["properties"]?["text"] == "Merci !")
        }
    }

    @Test func cachedScreensNeverCrossLocalesOrRolloutBuckets() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.released(service, prefix: "cross")
            try #require(
                try service.postFlow(Self.localized(id: id, title: "Sign-up v2", french: Self.french)).status == 201)
            let rollout = try service.rollout(id, version: 2, percent: 50)
            let rolloutId = try #require(rollout.json["id"]?.numberValue?.intValue)
            func bucket(_ subject: String) -> Int {
                let digest = SHA256.hash(Array("\(id)\n\(rolloutId)\n\(subject)".utf8))
                return Int(digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 100)
            }
            let subjects = (0..<100).map { "s\($0)" }
            let inside = try #require(subjects.first { bucket($0) < 50 })
            let outside = try #require(subjects.first { bucket($0) >= 50 })
            let combos = [("en", inside), ("fr", inside), ("en", outside), ("fr", outside)]
            let steps = ["email", "purpose", "employer", "holiday", "confirm", "done"]
            let cores = ["1.0.0", "1.1.0", "1.2.0", "2.0.0"]
            // Every order of the four (locale, bucket) requests, each order on a (step, core) no
            // earlier order used, so each starts with a cold cache.
            for (index, order) in Self.permutations(combos).enumerated() {
                let step = steps[index % steps.count]
                let core = cores[index / steps.count]
                for (locale, subject) in order {
                    let screen = try service.screen(
                        id, step: step, core: core, headers: [("Accept-Language", locale), ("Parley-Subject", subject)])
                    try #require(screen.status == 200, "\(screen)")
                    #expect(screen.header("Content-Language") == locale)
                    #expect(screen.json["version"] == (subject == inside ? 2 : 1), "\(order) at \(step)/\(core)")
                    let french = screen.text.contains("Suivant") || screen.text.contains("Merci")
                    #expect(french == (locale == "fr"), "\(locale) got the other locale's bytes at \(step)/\(core)")
                }
            }
        }
    }

    /// French for every string of `SessionFixture.signup`.
    static let french: [String: String] = [
        "Sign-up": "Inscription", "Sign-up v2": "Inscription v2", "email": "E-mail", "Purpose": "Motif",
        "employer": "Employeur", "destination": "Destination", "emailAgain": "E-mail à nouveau", "Next": "Suivant",
        "Required.": "Obligatoire.", "Not an e-mail.": "Ce n'est pas un e-mail.",
        "The e-mails differ.": "Les e-mails diffèrent.", "Thanks!": "Merci !",
        "Please update the app.": "Veuillez mettre à jour l'application.",
    ]

    /// `SessionFixture.signup` in English and French.
    static func localized(id: String, title: String = "Sign-up", french: [String: String]) throws -> String {
        var flow = try Flow(json: JSONParser.parse(Array(SessionFixture.signup(id: id, title: title).utf8)), at: .root)
        flow.localization = FlowLocalization.translating(flow.json, from: "en", ["fr": french])
        return CanonicalJSON.string(flow.json)
    }

    /// Posts and releases the localized sign-up flow under a fresh id.
    static func released(_ service: ServiceHarness, prefix: String) throws -> String {
        let id = FlowFixture.uniqueId(prefix)
        let posted = try service.postFlow(try localized(id: id, french: french))
        guard posted.status == 201 else { throw SessionFixture.Failure(description: "post: \(posted)") }
        let released = try service.release(id, version: 1)
        guard released.status == 201 else { throw SessionFixture.Failure(description: "release: \(released)") }
        return id
    }

    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }
}
