import Flows
import ParleyCore
import Testing

/// The wire JSON of the travel-insurance flow's expression parts, exactly as a bundle carries them.
@Suite(.timeLimit(.minutes(1))) struct TravelInsuranceGoldenTests {
    static let flow = ShippedFlows.travelInsurance

    static func node(_ step: String, _ id: String) throws -> Node {
        try #require(flow.step(step)?.screen.nodes.first { $0.id == id })
    }

    @Test func computedValues() throws {
        #expect(
            Golden.json(try #require(Self.flow.json["computed"]))
                == #"{"premium":{"round":{"add":[{"mul":[{"field":"tripCost"},{"literal":"0.04"}]},{"mul":[{"field":"travellers"},{"field":"days"},{"literal":"0.5"}]}]},"scale":2},"tripTotal":{"mul":[{"field":"tripCost"},{"field":"travellers"}]}}"#
        )
    }

    @Test func theConditionalFieldAndItsFallback() throws {
        #expect(
            Golden.json(try Self.node("trip", "otherPurpose"))
                == #"{"fallback":{"id":"otherPurpose-fallback","properties":{"fieldId":"otherPurpose","label":"If other, please specify","validation":[{"message":"Use at most 120 characters.","rule":"maxLength","value":120}]},"type":"textField"},"id":"otherPurpose","properties":{"fieldId":"otherPurpose","label":"Other — please specify","validation":[{"message":"Tell us the purpose of your trip.","rule":"required"},{"message":"Use at most 120 characters.","rule":"maxLength","value":120}]},"type":"textField","visibleWhen":{"equals":"other","field":"purpose"}}"#
        )
    }

    @Test func theRulesOverComputedValues() throws {
        #expect(
            Golden.json(try Self.node("traveller", "bookingReference").validation[0])
                == #"{"message":"Trips above 10,000 EUR need a booking reference.","rule":"requiredIf","when":{"computed":"tripTotal","greaterThan":"10000"}}"#
        )
        #expect(
            Golden.json(try #require(Self.flow.step("trip")?.next.first))
                == #"{"goto":"advisor","when":{"computed":"premium","greaterThan":"1000"}}"#)
    }

    /// The recalled answer in both languages: localized text parts around the expressions.
    @Test func theLocalizedThanks() throws {
        let steps = try #require(Self.flow.json["steps"]?.arrayValue)
        let confirm = try #require(steps.first { $0["id"] == "confirm" })
        let thanks = try #require(confirm["screen"]?["root"]?["children"]?.arrayValue?.first?["properties"]?["text"])
        #expect(
            Golden.json(thanks)
                == #"{"template":[{"en":"Thanks, ","fr":"Merci, "},{"field":"firstName"},{"en":" — your premium is ","fr":" — votre prime est de "},{"computed":"premium"},{"en":".","fr":"."}]}"#
        )
    }
}
