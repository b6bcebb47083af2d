import ParleyCore
import Testing

/// Regressions found while round-tripping DSL output: `JSONValue` is
/// `ExpressibleByNilLiteral`, and `JSONObject`'s subscript returned `.null`
/// for absent keys, so every absent member looked present.
@Suite(.timeLimit(.minutes(10))) struct CoreDecodingRegressionTests {
    @Test func predicateWithOneOperatorDecodes() throws {
        let predicate = try Predicate.decode(#"{"field":"purpose","equals":"work"}"#)
        #expect(predicate == .equals(field: "purpose", value: "work"))
        #expect(throws: ModelDecodingError.self) { try Predicate.decode(#"{"field":"p","equals":"a","in":["a"]}"#) }
    }

    @Test func nestedScreenWithoutSchemaDecodes() throws {
        let step = try Step.decode(#"{"id":"s","screen":{"id":"s","root":{"type":"vstack","id":"root"}}}"#)
        #expect(step.screen.root.type == .vstack)
    }
}
