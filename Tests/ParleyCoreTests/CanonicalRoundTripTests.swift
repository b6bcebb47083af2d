import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct CanonicalRoundTripTests {
    static let designScreen = """
        { "schema": "parley.screen/1", "id": "country", "title": "Passport",
          "root": { "type": "vstack", "id": "root", "properties": { "spacing": "m" },
            "children": [
              { "type": "text", "id": "intro", "properties": { "text": "A few details first." } },
              { "type": "textField", "id": "country",
                "properties": { "fieldId": "passportCountry", "label": "Passport country",
                  "validation": [
                    { "rule": "required", "message": "Passport country is required." },
                    { "rule": "pattern", "value": "[A-Z]{2}", "message": "Use the two-letter code." } ] } },
              { "type": "button", "id": "next",
                "properties": { "title": "Continue", "action": { "type": "submit" } } } ] } }
        """

    @Test func designExampleDecodesAndRoundTrips() throws {
        let screen = try Screen.decode(Self.designScreen)
        #expect(screen.inputs.map(\.fieldId) == ["passportCountry"])
        #expect(screen.inputs[0].validation.map(\.name) == ["required", "pattern"])
        let bytes = screen.canonicalBytes
        let again = try Screen.decode(bytes)
        #expect(again == screen)
        #expect(again.canonicalBytes == bytes)
    }

    @Test func numbersAreExactAndCanonical() throws {
        let value = try JSONParser.parse("[1.50, 1e2, -0, 0.0075, 1E-3, 1e400, 12345678901234567890123]")
        #expect(CanonicalJSON.string(value) == "[1.5,100,0,0.0075,0.001,1e+400,1.2345678901234567890123e+22]")
    }
}
