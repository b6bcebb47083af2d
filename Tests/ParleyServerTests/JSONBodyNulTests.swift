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

    /// The scan skips words without a backslash: an escape is found at every offset, on either
    /// side of a word boundary, and a backslash alone is not enough.
    @Test func theScanFindsTheEscapeAtEveryOffset() {
        for prefix in 0...17 {
            let padding = String(repeating: "a", count: prefix)
            #expect(JSONBody.mayEscapeNul(Array((padding + #"\u0000"# + "bb").utf8)), "offset \(prefix)")
            #expect(JSONBody.mayEscapeNul(Array((padding + #"\u0000"#).utf8)), "offset \(prefix), at the end")
            #expect(!JSONBody.mayEscapeNul(Array((padding + #"\u0001\\"# + "bbbbbbbb").utf8)), "offset \(prefix)")
        }
    }
}
