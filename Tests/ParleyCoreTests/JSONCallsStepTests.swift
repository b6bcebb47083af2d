import ParleyCore
import Testing

/// The calls the studio and web clients run locally (docs/webassembly.md): `evaluate`, `harness`,
/// `preview` and `lint` with warnings answer exactly as the server's preview, lint and the
/// conformance harness do, because they are the same functions.
@Suite(.timeLimit(.minutes(10))) struct JSONCallsStepTests {
    static let flow = flow(title: #""title":{"en":"A","fr":"A"},"#)

    static func flow(title: String) -> String {
        #"""
        {"schema":"parley.flow/1","id":"f","start":"a","locales":["en","fr"],
         "computed":{"double":{"mul":[{"field":"n"},{"literal":"2"}]}},
         "steps":[{"id":"a","screen":{"schema":"parley.screen/1","id":"a",\#(title)
           "root":{"type":"vstack","id":"root","children":[
             {"type":"textField","id":"n","properties":{"fieldId":"n","label":{"en":"N","fr":"N"}}},
             {"type":"textField","id":"more","visibleWhen":{"field":"n","greaterThan":"10"},
              "properties":{"fieldId":"more","label":{"en":"More","fr":"Plus"},"validation":[{"rule":"required"}]}}]}},
           "next":[]}],
         "upgrade":{"schema":"parley.screen/1","id":"upgrade","title":{"en":"Update","fr":"Mise à jour"},
           "root":{"type":"text","id":"up","properties":{"text":{"en":"Update the app","fr":"Mettez à jour"}}}}}
        """#
    }

    static func text(_ name: String, _ arguments: [String?]) -> String? {
        JSONCalls.call(name, arguments.map { $0.map { Array($0.utf8) } }).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func evaluateIsTheHarnessEvaluationWithVisibility() throws {
        let flow = try Flow.decode(Self.flow)
        let step = try #require(flow.step("a"))
        let output = try #require(Self.text("evaluate", [Self.flow, "a", #"{"n":"12"}"#]))
        let expected = ExpressionHarness.evaluate(
            flow: flow, step: step, answers: try Answers(try JSONParser.parse(#"{"n":"12"}"#)))
        #expect(output == CanonicalJSON.string(expected))
        #expect(output.contains(#""computed":{"double":"24"}"#) && output.contains(#""more":true"#))
        #expect(output.contains(#""valid":false"#), "a shown required field is required")
        let hidden = try #require(Self.text("evaluate", [Self.flow, nil, #"{"n":"3","more":"x"}"#]))
        #expect(hidden.contains(#""cleared":["more"]"#) && hidden.contains(#""more":false"#))
        #expect(
            Self.text("evaluate", [Self.flow, "a", "{}", nil, #"{"locale":"de"}"#])
                == #"{"error":"options.locale must be one of the flow's locales"}"#)
        #expect(Self.text("evaluate", [Self.flow, "zz", "{}"]) == #"{"error":"the flow has no step \"zz\""}"#)
    }

    @Test func harnessAnswersTheExpressionRequests() {
        let request = #"{"expression":{"add":[{"literal":"0.1"},{"literal":"0.2"}]},"answers":{}}"#
        #expect(Self.text("harness", [request]) == #"{"value":"0.3"}"#)
        #expect(Self.text("harness", [#"{"screen":{}}"#])?.hasPrefix(#"{"error":"request must hold"#) == true)
    }

    @Test func previewIsThePreviewEndpointsBody() throws {
        let request = #"{"flow":"# + Self.flow + #","step":"a","core":"2.0.0","answers":{"n":"12","more":"y"}}"#
        let output = try #require(Self.text("preview", [request]))
        guard case .object(let body) = try JSONParser.parse(request) else { Issue.record("not an object"); return }
        let expected = try FlowPreview.respond(to: body, maxAnswerLength: FlowPreview.defaultMaxAnswerLength)
        #expect(output == CanonicalJSON.string(expected))
        #expect(output.contains(#""valid":true"#), "both answers given")
        #expect(output.contains(#""core":"2.0.0""#) && output.contains(#""evaluation":"#))
        let refused = try #require(Self.text("preview", [#"{"flow":{"schema":"parley.flow/1"}}"#]))
        #expect(refused.contains(#""type":"urn:parley:problem:lint-failed""#) && refused.contains(#""status":422"#))
        let malformed = try #require(Self.text("preview", [#"{"step":"a"}"#]))
        #expect(malformed.contains(#""type":"urn:parley:problem:malformed-body""#))
    }

    @Test func lintWithWarningsIsTheLintEndpointsBody() throws {
        let untitled = Self.flow(title: "")
        let output = try #require(Self.text("lint", [untitled, #"{"warnings":true}"#]))
        let expected = LintResult(bytes: Array(untitled.utf8), linter: FlowLinter(includesWarnings: true)).json
        #expect(output == CanonicalJSON.string(.object(expected)))
        #expect(output.contains(#""severity":"warning""#), "a screen without a title is an accessibility warning")
        #expect(Self.text("lint", [untitled])?.contains(#""severity":"warning""#) == false)
    }
}
