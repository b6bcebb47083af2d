import Flows
import ParleyCore
import ParleyDSL
import Testing

/// The shipped travel-insurance flow does what DESIGN.md "Expressions" promises, checked with the
/// evaluation the server and every core run (``StepEvaluation``, ``PathReplay``).
@Suite(.timeLimit(.minutes(1))) struct TravelInsuranceTests {
    static let flow = ShippedFlows.travelInsurance

    static func evaluate(_ step: String, _ answers: Answers, context: Answers = Answers()) -> StepEvaluation {
        StepEvaluation.evaluate(flow: flow, step: flow.step(step)!, answers: answers, context: context)
    }

    static func errors(_ evaluation: StepEvaluation) -> [String] {
        evaluation.validation.errors.map { "\($0.field):\($0.rule)" }
    }

    static let trip: Answers = ["purpose": "leisure", "tripCost": "500", "travellers": "1", "days": "45"]
    static let traveller: Answers = ["firstName": "Ana", "email": "ana@example.com", "country": "FR"]

    @Test func declaresItsExpressions() {
        #expect(Self.flow.computed.map(\.name) == ["premium", "tripTotal"])
        #expect(Self.flow.locales == ["en", "fr"])
        #expect(Self.flow.step("trip")?.screen.nodes.first { $0.id == "otherPurpose" }?.visibleWhen != nil)
    }

    /// Cores below 2.1 never need the upgrade screen: without it the flow still lints clean, because
    /// the live template has a fallback text and the "please specify" input a fallback node.
    @Test func servableBelow21WithoutTheUpgradeScreen() {
        var flow = Self.flow
        flow.upgrade = nil
        let problems = FlowLinter().lint(flow: flow.json)
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
        var bare = flow
        bare.steps[0].screen.root.children[1].fallback = nil
        #expect(FlowLinter().lint(flow: bare.json).map(\.code) == ["unservableStep"], "the fallback is what serves it")
    }

    /// In a bundle, the flows after this one do not inherit its computed names (`parley bundle
    /// build` puts designer JSON flows after the shipped ones), nor those before it its fields.
    @Test func aBundleWithFlowsAroundItLintsClean() {
        let before = Flow("before") { Step("a") { Text("Hello") } }
        let after = Flow("after") { Step("a") { Text("Hello") } }
        let bundle = ParleyCore.Bundle(channel: "production", flows: [before] + ShippedFlows.all + [after])
        let problems = FlowLinter().lint(bundle: bundle.json)
        #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
    }

    /// premium = round(cost × 0.04 + travellers × days × 0.5, 2), in exact decimals.
    @Test(arguments: [
        (["500", "1", "45"], "42.5"), (["1200", "2", "10"], "58"), (["0.01", "1", "1"], "0.5"),
        (["999.99", "3", "7"], "50.5"), (["12345.67", "9", "365"], "2136.33"), (["abc", "1", "1"], ""),
    ])
    func premiumIsExact(_ inputs: [String], _ expected: String) {
        let answers: Answers = ["tripCost": inputs[0], "travellers": inputs[1], "days": inputs[2]]
        var evaluator = ExpressionEvaluator(flow: Self.flow, answers: answers)
        #expect(evaluator.computed("premium") == ExpressionValue(expected.isEmpty ? nil : expected))
    }

    @Test func otherPurposeIsAskedOnlyForOther() {
        let leisure = Self.evaluate("trip", Self.trip.merging(["otherPurpose": "a wedding"]))
        #expect(leisure.cleared == ["otherPurpose"])
        #expect(leisure.answers == Self.trip)
        #expect(leisure.validation.valid)
        let other = Self.evaluate("trip", Self.trip.merging(["purpose": "other"]))
        #expect(other.cleared.isEmpty)
        #expect(Self.errors(other) == ["otherPurpose:required"])
        #expect(Self.evaluate("trip", Self.trip.merging(["purpose": "other", "otherPurpose": "x"])).validation.valid)
    }

    /// The premium chooses the transition: above 1,000 an advisor calls.
    @Test func premiumDecidesTheNextStep() {
        #expect(Self.evaluate("trip", Self.trip).nextStepId == "traveller")
        let expensive = Self.trip.merging(["tripCost": "20000", "travellers": "2", "days": "30"])
        #expect(Self.evaluate("trip", expensive).environment.computed("premium") == .text("830"))
        let long = Self.trip.merging(["tripCost": "10000", "travellers": "4", "days": "301"])
        #expect(Self.evaluate("trip", long).nextStepId == "advisor")
    }

    /// A booking reference only above a 10,000 total; a medical declaration from a 500 premium.
    @Test func requirementsFollowComputedValues() {
        let cheap = Self.evaluate("traveller", Self.traveller, context: Self.trip)
        #expect(cheap.validation.valid)
        let pricey = Self.trip.merging(["tripCost": "5001", "travellers": "2", "days": "10"])
        #expect(
            Self.errors(Self.evaluate("traveller", Self.traveller, context: pricey)) == ["bookingReference:requiredIf"])
        let exactly = Self.trip.merging(["tripCost": "5000", "travellers": "2", "days": "10"])
        #expect(Self.evaluate("traveller", Self.traveller, context: exactly).validation.valid, "10,000 does not pass")
        let heavy = Self.trip.merging(["tripCost": "2000", "travellers": "9", "days": "100"])
        #expect(
            Self.errors(Self.evaluate("traveller", Self.traveller, context: heavy))
                == ["bookingReference:requiredIf", "medicalNotes:requiredIf"])
    }

    /// The five-digit pattern applies only to French addresses.
    @Test func postcodePatternOnlyInFrance() {
        let address: Answers = ["street": "1 rue de la Paix", "city": "Paris"]
        let france = Self.trip.merging(Self.traveller)
        #expect(Self.evaluate("address", address.merging(["postcode": "75002"]), context: france).validation.valid)
        #expect(
            Self.errors(Self.evaluate("address", address.merging(["postcode": "SW1A 1AA"]), context: france))
                == ["postcode:pattern"])
        #expect(Self.errors(Self.evaluate("address", address, context: france)) == ["postcode:required"])
        let britain = france.merging(["country": "GB"])
        let london = Self.evaluate(
            "address", address.merging(["postalCode": "SW1A 1AA", "postcode": "x"]), context: britain)
        #expect(london.validation.valid)
        #expect(london.cleared == ["postcode"])
    }

    /// The last step recalls the name and the premium of earlier steps, in both languages.
    @Test func theLastStepRecallsAnswers() throws {
        let answers = Self.trip.merging(Self.traveller)
        let thanks = try #require(Self.flow.step("confirm")?.screen.nodes.first { $0.id == "thanks" })
        var evaluator = ExpressionEvaluator(flow: Self.flow, answers: answers)
        #expect(evaluator.text(of: try #require(thanks.template("text"))) == "Thanks, Ana — your premium is 42.5.")
        let french = try #require(
            Self.flow.localized(to: "fr").step("confirm")?.screen.nodes.first { $0.id == "thanks" })
        #expect(evaluator.text(of: try #require(french.template("text"))) == "Merci, Ana — votre prime est de 42.5.")
    }

    /// A session's snapshot of the address step (``SnapshotResolver``): the country is known, so
    /// the postcode fields are decided before serving and the greeting is a plain string — every
    /// core renders it, in the session's language.
    @Test func theAddressStepIsResolvedFromEarlierSteps() throws {
        let french = Self.flow.localized(to: "fr")
        let context = Self.trip.merging(Self.traveller)
        for live in [true, false] {
            let resolved = SnapshotResolver.resolve(
                flow: french, step: try #require(french.step("address")), context: context, liveExpressions: live)
            #expect(resolved.needsCapability.isEmpty)
            let nodes = resolved.screen.nodes
            #expect(!nodes.contains { $0.id == "postalCode" })
            #expect(nodes.first { $0.id == "postcode" }?.visibleWhen == nil)
            #expect(nodes.first { $0.id == "intro" }?.properties["text"] == "Où envoyer votre contrat, Ana ?")
        }
        let britain = context.merging(["country": "GB"])
        let resolved = SnapshotResolver.resolve(
            flow: Self.flow, step: try #require(Self.flow.step("address")), context: britain)
        #expect(resolved.screen.nodes.map(\.id).contains("postalCode"))
        #expect(!resolved.screen.nodes.map(\.id).contains("postcode"))
    }

    /// The trip step reads itself: a 2.1 core gets the live template and `visibleWhen`; an older one
    /// the template's fallback text, and the "please specify" node is left to gating, which serves
    /// its fallback input.
    @Test func theTripStepIsLiveOnlyFor21() throws {
        let trip = try #require(Self.flow.step("trip"))
        let live = SnapshotResolver.resolve(flow: Self.flow, step: trip, context: Answers())
        #expect(live.needsCapability.isEmpty)
        #expect(live.screen == trip.screen)
        let old = SnapshotResolver.resolve(flow: Self.flow, step: trip, context: Answers(), liveExpressions: false)
        #expect(old.needsCapability == ["otherPurpose"])
        #expect(
            old.screen.nodes.first { $0.id == "estimate" }?.properties["text"]
                == "We show your premium on the next screens.")
        #expect(trip.screen.nodes.first { $0.id == "otherPurpose" }?.fallback?.fieldId == "otherPurpose")
    }

    /// Both paths replay to a completion holding exactly the visible fields.
    @Test func pathsReplay() {
        let replay = PathReplay(flow: Self.flow)
        let address: Answers = ["street": "1 rue de la Paix", "postcode": "75002", "city": "Paris"]
        let short: [PathReplay.Entry] = [
            ("trip", Self.trip), ("traveller", Self.traveller), ("address", address), ("confirm", [:]),
        ]
        #expect(replay.replay(short) == .completed(Self.trip.merging(Self.traveller).merging(address)))
        let costly = Self.trip.merging(["tripCost": "10000", "travellers": "4", "days": "301"])
        let withAdvisor: [PathReplay.Entry] = [
            ("trip", costly), ("advisor", ["phone": "+33 1 23 45 67 89"]),
            ("traveller", Self.traveller.merging(["bookingReference": "AB12", "medicalNotes": "none"])),
            ("address", address), ("confirm", [:]),
        ]
        guard case .completed(let all) = replay.replay(withAdvisor) else {
            Issue.record("the advisor path did not complete: \(replay.replay(withAdvisor))")
            return
        }
        #expect(all["phone"] == "+33 1 23 45 67 89")
    }
}
