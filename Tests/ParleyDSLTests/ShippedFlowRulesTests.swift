import Flows
import ParleyCore
import Testing

/// The shipped flows' rules do what their messages promise, checked with the
/// server's rule interpreter (DESIGN.md "Rule interpreter").
@Suite struct ShippedFlowRulesTests {
    func errors(_ flow: Flow, _ step: String, _ answers: Answers) -> [String] {
        let screen = flow.step(step)!.screen
        return RuleInterpreter(mode: .server).validate(screen: screen, answers: answers).errors.map {
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
        #expect(errors(flow, "contact", ["email": "a@example.com", "emailConfirmation": "a@example.com"]).isEmpty)
        #expect(
            errors(flow, "contact", ["email": "a@example.com", "emailConfirmation": "b@example.com"])
                == ["emailConfirmation:equalsField"])
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
