import Flows
import ParleyClient
import ParleyCore
import Testing

/// ``ParleySession/evaluate(_:)`` and ``ParleySession/submit(_:)`` on the shipped travel-insurance
/// flow's first step: visibility, computed values and templates decided on the device by
/// ParleyCore (DESIGN.md "Expressions"), and a hidden field's answer never sent.
@Suite(.timeLimit(.minutes(1))) struct LocalEvaluationTests {
    static let flow = ShippedFlows.travelInsurance
    static let trip = flow.step("trip")!

    static func session() async throws -> (ParleySession, SessionTransport) {
        let transport = SessionTransport(screen: trip.screen, computed: flow.computed)
        let session = try await ParleySession.start(
            flow: flow.id, endpoint: ParleyEndpoint(transport: transport, core: "2.1.0"))
        return (session, transport)
    }

    static let leisure: Answers = [
        "purpose": "leisure", "tripCost": "500", "travellers": "1", "days": "45",
    ]

    @Test func theOtherFieldAppearsOnlyForOther() async throws {
        let (session, _) = try await Self.session()
        let other = await session.evaluate(Self.leisure.merging(["purpose": "other"]))
        #expect(other.isVisible(nodeId: "otherPurpose"))
        #expect(other.hiddenFields.isEmpty)
        #expect(other.validation.errors.map(\.field) == ["otherPurpose"], "shown, so required")
        let leisure = await session.evaluate(Self.leisure.merging(["otherPurpose": "a wedding"]))
        #expect(!leisure.isVisible(nodeId: "otherPurpose"))
        #expect(leisure.hiddenFields == ["otherPurpose"])
        #expect(leisure.cleared == ["otherPurpose"])
        #expect(leisure.answers == Self.leisure)
        #expect(leisure.validation.valid)
    }

    @Test func computedValuesAndTemplatesMatchTheCore() async throws {
        let (session, _) = try await Self.session()
        let local = await session.evaluate(Self.leisure)
        #expect(local.computed("premium") == .text("42.5"))
        #expect(local.computed("tripTotal") == .text("500"))
        #expect(local.computed("unknown") == .empty)
        #expect(local.computedValues.map(\.name) == ["premium", "tripTotal"])
        #expect(
            local.texts == [TemplateText(nodeId: "estimate", property: "text", text: "Estimated premium: 42.5 EUR")])
        #expect(local.text(nodeId: "estimate", property: "text") == "Estimated premium: 42.5 EUR")
        let server = StepEvaluation.evaluate(flow: Self.flow, step: Self.trip, answers: Self.leisure)
        #expect(local.computed("premium") == server.environment.computed("premium"))
        #expect(local.cleared == server.cleared)
        #expect(server.nextStepId == "traveller")
        let empty = await session.evaluate(["purpose": "leisure"])
        #expect(empty.computed("premium") == .empty)
        #expect(empty.text(nodeId: "estimate", property: "text") == "Estimated premium:  EUR")
    }

    /// The text changes as answers change, with no request.
    @Test func evaluatingSendsNothing() async throws {
        let (session, transport) = try await Self.session()
        for days in ["1", "10", "100"] {
            let local = await session.evaluate(Self.leisure.merging(["days": days]))
            let expected = StepEvaluation.evaluate(
                flow: Self.flow, step: Self.trip, answers: Self.leisure.merging(["days": days]))
            #expect(local.computed("premium") == expected.environment.computed("premium"))
        }
        #expect(transport.requests.map(\.path) == ["/v1/sessions"])
    }

    @Test func aHiddenFieldsValueIsNotSent() async throws {
        let (session, transport) = try await Self.session()
        let outcome = try await session.submit(Self.leisure.merging(["otherPurpose": "a wedding"]))
        guard case .accepted(let snapshot) = outcome else {
            Issue.record("not accepted: \(outcome)")
            return
        }
        #expect(snapshot.rev == 2)
        let sent = try #require(transport.lastSentAnswers)
        #expect(sent["otherPurpose"] == nil)
        #expect(try Answers(sent) == Self.leisure)
    }

    @Test func aShownFieldsValueIsSent() async throws {
        let (session, transport) = try await Self.session()
        let answers = Self.leisure.merging(["purpose": "other", "otherPurpose": "a wedding"])
        guard case .accepted = try await session.submit(answers) else {
            Issue.record("not accepted")
            return
        }
        #expect(try Answers(try #require(transport.lastSentAnswers)) == answers)
    }

    @Test func aShownRequiredFieldLeftEmptyIsRefusedLocally() async throws {
        let (session, transport) = try await Self.session()
        let outcome = try await session.submit(Self.leisure.merging(["purpose": "other"]))
        #expect(
            outcome
                == .invalidLocally([
                    ValidationError(
                        field: "otherPurpose", rule: "required", message: "Tell us the purpose of your trip.")
                ]))
        #expect(transport.requests.count == 1, "nothing sent")
    }
}
