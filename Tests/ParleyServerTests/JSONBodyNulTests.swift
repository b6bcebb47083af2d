import Testing

@testable import ParleyServer

/// The byte scan that decides whether a parsed body needs the exact U+0000 check: it must find
/// every `\u0000` escape (the only way the parser lets U+0000 into a value).
@Suite(.timeLimit(.minutes(10))) struct JSONBodyNulTests {
    @Test func theScanFindsEveryEscapedNul() {
        for text in [#"{"a":"\u0000"}"#, #"{"\u0000":1}"#, #"\u0000"#, #"["x\u00000"]"#, #"{"a":"\\\u0000"}"#] {
            #expect(JSONBody.mayEscapeNul(Array(text.utf8)), "\(text)")
        }
        for text in [#"{"a":"\u0001"}"#, #"{"a":"u0000"}"#, #"\u000"#, "", #"{"a":"\u00a0"}"#] {
            #expect(!JSONBody.mayEscapeNul(Array(text.utf8)), "\(text)")
        }
    }
}
