import ParleyCore
import Testing

/// `"retention"` (issue 18): ISO 8601 durations of whole units, longer than zero, that the
/// model keeps as written and lint refuses when malformed.
@Suite(.timeLimit(.minutes(10))) struct RetentionPeriodTests {
    @Test(arguments: ["P90D", "P1Y", "P1Y6M", "P2W", "PT36H", "P1DT12H", "P0Y1D", "PT1S", "P999999D"])
    func wellFormedDurationsParse(_ text: String) {
        #expect(RetentionPeriod(text)?.description == text)
    }

    @Test(arguments: [
        "", "P", "PT", "90D", "P90", "P0D", "P1DT", "P1.5D", "P-1D", "P1D1Y", "P1H", "PT1D", "P1M1M", "P1DT1H1M1S2S",
        "P1234567D", "p90d", "P 90D", "P1٣D",
    ])
    func malformedOrZeroDurationsAreRefused(_ text: String) {
        #expect(RetentionPeriod(text) == nil)
    }

    @Test func aFlowKeepsItsRetentionThroughTheWireFormat() throws {
        let document = """
            { "schema": "parley.flow/1", "id": "f", "start": "a", "retention": "P6M",
              "steps": [ { "id": "a", "screen": { "id": "a", "root": { "type": "text", "id": "t" } }, "next": [] } ] }
            """
        let json = try JSONParser.parse(Array(document.utf8))
        let flow = try Flow(json: json, at: .root)
        #expect(flow.retention == .months(6))
        #expect(flow.json["retention"] == "P6M")
        #expect(FlowLinter().lint(flow: json).isEmpty)
        let malformed = try JSONParser.parse(Array(document.replacingOccurrences(of: "P6M", with: "six months").utf8))
        #expect(throws: ModelDecodingError.self) { try Flow(json: malformed, at: .root) }
        #expect(FlowLinter().lint(flow: malformed).map(\.pointer.description) == ["/retention"])
    }
}
