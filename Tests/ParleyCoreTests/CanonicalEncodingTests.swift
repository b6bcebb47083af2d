import Foundation
import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct CanonicalEncodingTests {
    @Test func flowIsByteIdenticalAcrossDecodeEncodeDecode() throws {
        let flow = try Flow.decode(Fixture.everyKindFlow)
        let first = flow.canonicalBytes
        let again = try Flow.decode(first)
        #expect(again == flow)
        #expect(again.canonicalBytes == first)
        #expect(!first.contains(UInt8(ascii: "\n")))
        #expect(!first.contains(UInt8(ascii: " ")) || flow.canonicalString.contains("Name again"))
    }

    @Test func keyOrderAndWhitespaceDoNotChangeTheBytes() throws {
        let a = try Screen.decode(
            #"{"schema":"parley.screen/1","id":"s","root":{"type":"text","id":"t","properties":{"text":"x","style":"b"}}}"#
        )
        let b = try Screen.decode(
            """
            {
              "root" : { "properties" : { "style" : "b", "text" : "x" }, "id" : "t", "type" : "text" },
              "id" : "s", "schema" : "parley.screen/1.0"
            }
            """)
        #expect(a.canonicalBytes == b.canonicalBytes)
        #expect(
            a.canonicalString
                == #"{"id":"s","root":{"id":"t","properties":{"style":"b","text":"x"},"type":"text"},"schema":"parley.screen/1"}"#
        )
    }

    @Test func stringsWithEscapesAndAstralCharactersRoundTrip() throws {
        let text = #"{"a":"quote \" backslash \\ tab \t nl \n ctl \u0001 slash \/ emoji 😀 \ud83d\ude00 é"}"#
        let value = try JSONParser.parse(text)
        let canonical = CanonicalJSON.string(value)
        #expect(canonical == "{\"a\":\"quote \\\" backslash \\\\ tab \\t nl \\n ctl \\u0001 slash / emoji 😀 😀 é\"}")
        let reparsed = try JSONParser.parse(canonical)
        #expect(reparsed == value)
        #expect(CanonicalJSON.encode(reparsed) == CanonicalJSON.encode(value))
    }

    @Test func canonicallyEquivalentStringsStayDistinct() throws {
        let decomposed = try Screen.decode(
            #"{"schema":"parley.screen/1","id":"s","root":{"type":"text","id":"a\u0308","properties":{"text":"a\u0308"}}}"#
        )
        let precomposed = try Screen.decode(
            #"{"schema":"parley.screen/1","id":"s","root":{"type":"text","id":"\u00e4","properties":{"text":"ä"}}}"#)
        #expect(decomposed != precomposed)
        #expect(decomposed.canonicalBytes != precomposed.canonicalBytes)
        #expect(decomposed.root.id.unicodeScalars.count == 2)
        #expect(try Screen.decode(decomposed.canonicalBytes).root.id.unicodeScalars.map(\.value) == [0x61, 0x308])
        let object = try JSONParser.parse(#"{"a\u0308": 1, "ä": 2}"#)
        #expect(object.objectValue?.count == 2)
        #expect(CanonicalJSON.string(object) == "{\"a\u{308}\":1,\"ä\":2}")
    }

    @Test func unknownPartsSurviveTheRoundTrip() throws {
        let text = Fixture.flow(
            nodes: #"""
                { "type": "map", "id": "m", "properties": { "pins": [1, 2.50] }, "layout": { "z": 1 } },
                { "type": "button", "id": "b", "properties": { "title": "Go", "future": { "k": null },
                  "action": { "type": "share", "target": "x", "fallback": { "type": "submit" } } } },
                { "type": "textField", "id": "t", "properties": { "fieldId": "t",
                  "validation": [ { "rule": "luhn", "digits": 16 } ] } }
                """#)
        let flow = try Flow.decode(text)
        let bytes = flow.canonicalBytes
        let string = flow.canonicalString
        for fragment in [
            #""layout":{"z":1}"#, #""pins":[1,2.5]"#, #""future":{"k":null}"#, #""target":"x""#, #""digits":16"#,
            #""rule":"luhn""#, #""type":"map""#, #""type":"share""#,
        ] {
            #expect(string.contains(fragment), "lost \(fragment)")
        }
        #expect(try Flow.decode(bytes).canonicalBytes == bytes)
    }

    @Test func codableBridgeMatchesTheWireForm() throws {
        let screen = try Screen.decode(CanonicalRoundTripTests.designScreen)
        let data = try JSONEncoder().encode(screen)
        #expect(try Screen.decode(Array(data)) == screen)
        #expect(try JSONDecoder().decode(Screen.self, from: data) == screen)
    }

    /// Answers written straight to canonical JSON (snapshots, log rows) are the bytes of their
    /// JSON value encoded: same key order (scalar), same escapes, short and long strings alike.
    @Test func answersWriteTheBytesOfTheirJSON() throws {
        let answers: Answers = [
            "b": "plain", "a\u{308}": "combining", "ä": "precomposed", "Z": "quo\"te \\ back\nline\u{1}",
            "long": String(repeating: "x\t", count: 40) + "é🇨🇭", "": "empty key", "k": "",
        ]
        var written: [UInt8] = []
        answers.writeCanonicalJSON(into: &written)
        #expect(written == CanonicalJSON.encode(answers.json))
        var empty: [UInt8] = []
        Answers().writeCanonicalJSON(into: &empty)
        #expect(empty == Array("{}".utf8))
        let text = "a\"b\\c\u{8}\u{c}\n\r\t\u{1f}" + String(repeating: "-", count: 30) + "\u{7f}ü"
        var string: [UInt8] = []
        CanonicalJSON.writeString(text, into: &string)
        #expect(
            String(decoding: string, as: UTF8.self)
                == #""a\"b\\c\b\f\n\r\t\u001f------------------------------"# + "\u{7f}ü\"")
        #expect(try JSONParser.parse(string) == .string(text))
    }
}
