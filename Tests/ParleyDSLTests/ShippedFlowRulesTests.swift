import Flows
import ParleyCore
import Testing

/// The shipped flows' rules do what their messages promise, checked with the
/// server's rule interpreter (DESIGN.md "Rule interpreter").
@Suite(.timeLimit(.minutes(10))) struct ShippedFlowRulesTests {
    func errors(_ flow: Flow, _ step: String, _ answers: Answers, context: Answers = Answers()) -> [String] {
        let screen = flow.step(step)!.screen
        return RuleInterpreter(mode: .server).validate(screen: screen, answers: answers, context: context).errors.map {
            "\($0.field):\($0.rule)"
        }
    }

    @Test func passportCountryAndPurpose() {
        let flow = ShippedFlows.passportIntake
        #expect(errors(flow, "country", ["passportCountry": "DE", "purpose": "work"]).isEmpty)
        #expect(
            errors(flow, "country", ["passportCountry": "de", "purpose": "holiday"])
                == ["passportCountry:pattern", "purpose:oneOf"])
        #expect(errors(flow, "country", [:]) == ["passportCountry:required", "purpose:required"])
    }

    @Test func passportDocumentAndContact() {
        let flow = ShippedFlows.passportIntake
        #expect(errors(flow, "document", ["documentNumber": "C01X00T47", "expiryDate": "2031-02-28"]).isEmpty)
        #expect(
            errors(flow, "document", ["documentNumber": "c01", "expiryDate": "2031-02-30"])
                == ["documentNumber:pattern", "expiryDate:date"])
        #expect(errors(flow, "contact", ["email": "a@example.com"]).isEmpty)
        #expect(errors(flow, "contact", ["email": "a at example.com"]) == ["email:email"])
        #expect(errors(flow, "contact", [:]) == ["email:required"])
    }

    /// The confirmation on `confirm` must equal the e-mail given on `contact`, an earlier step.
    @Test func passportConfirmationReadsTheEarlierEmail() {
        let flow = ShippedFlows.passportIntake
        let earlier: Answers = ["email": "a@example.com"]
        #expect(errors(flow, "confirm", ["emailConfirmation": "a@example.com"], context: earlier).isEmpty)
        #expect(
            errors(flow, "confirm", ["emailConfirmation": "b@example.com"], context: earlier)
                == ["emailConfirmation:equalsField"])
        #expect(errors(flow, "confirm", [:], context: earlier) == ["emailConfirmation:required"])
        #expect(
            errors(flow, "confirm", ["emailConfirmation": "a@example.com", "email": "a@example.com"], context: earlier)
                == ["email:unexpectedField"], "the e-mail belongs to the contact step")
    }

    /// Both paths (work travel through `employer`, anything else straight to `document`) replay to a
    /// completion holding exactly their fields; a mismatched confirmation is refused.
    @Test func passportPathsReplay() {
        let replay = PathReplay(flow: ShippedFlows.passportIntake)
        let tail: [PathReplay.Entry] = [
            ("document", ["documentNumber": "C01X00T47", "expiryDate": "2031-02-28"]),
            ("contact", ["email": "a@example.com"]), ("confirm", ["emailConfirmation": "a@example.com"]),
            ("done", [:]),
        ]
        let tourism: [PathReplay.Entry] = [("country", ["passportCountry": "DE", "purpose": "tourism"])] + tail
        let work: [PathReplay.Entry] =
            [
                ("country", ["passportCountry": "DE", "purpose": "work"]),
                ("employer", ["employerName": "Acme", "employerCity": "Berlin"]),
            ] + tail
        for path in [tourism, work] {
            var all = Answers()
            for entry in path { all = all.merging(entry.answers) }
            #expect(replay.replay(path) == .completed(all))
        }
        var mismatch = tourism
        mismatch[3].answers = ["emailConfirmation": "b@example.com"]
        guard case .refused(let refusal) = replay.replay(mismatch) else {
            Issue.record("a mismatched confirmation completed")
            return
        }
        #expect(refusal.step == "confirm")
        #expect(
            refusal.reason
                == .invalidAnswers([
                    ValidationError(
                        field: "emailConfirmation", rule: "equalsField", message: "The e-mail addresses do not match.")
                ]))
    }

    @Test func deliveryNumericAndConditionalRules() {
        let flow = ShippedFlows.deliveryAddress
        let home: Answers = [
            "street": "Main St", "houseNumber": "12", "postcode": "10115", "city": "Berlin", "addressType": "home",
        ]
        #expect(errors(flow, "address", home).isEmpty)
        var business = home
        business["addressType"] = "business"
        #expect(errors(flow, "address", business) == ["companyName:requiredIf"])
        var bad = home
        bad["houseNumber"] = "12.5"
        #expect(errors(flow, "address", bad) == ["houseNumber:integer"])
        #expect(errors(flow, "delivery", ["tip": "2.50"]).isEmpty)
        #expect(errors(flow, "delivery", ["tip": "2.25"]) == ["tip:multipleOf"])
        #expect(errors(flow, "delivery", ["floor": "3"]) == ["deliveryNotes:requiredIf"])
        #expect(errors(flow, "delivery", ["floor": "0"]).isEmpty)
    }

    @Test func chatTopicsAndTransitions() {
        let flow = ShippedFlows.chatSupport
        #expect(errors(flow, "topic", ["topic": "Returns"]).isEmpty)
        #expect(errors(flow, "topic", ["topic": "Other"]) == ["topic:oneOf"])
        #expect(errors(flow, "order", ["orderId": "1234"]) == ["orderId:pattern"])
        let next = flow.step("topic")!.next
        #expect(next.first?.when == .isIn(field: "topic", values: ["Where is my order?", "Returns"]))
    }
}
