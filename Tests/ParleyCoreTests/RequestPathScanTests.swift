import Testing

@testable import ParleyCore

/// The word-at-a-time shortcuts of the answer path (issue 27): each must decide exactly what the
/// byte-by-byte code it skips would, wherever in a word the byte that matters falls.
@Suite(.timeLimit(.minutes(10))) struct RequestPathScanTests {
    /// `writeString` against the plain escape walk, for every special byte at every offset of
    /// strings one to twenty bytes long (both sides of an eight-byte word and its tail).
    @Test func stringsAreEscapedWhereverTheSpecialByteFalls() {
        let specials: [UInt8] = [0x00, 0x01, 0x08, 0x0A, 0x1F, 0x22, 0x5C]
        for length in 1...20 {
            for offset in 0..<length {
                for special in specials {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[offset] = special
                    let text = String(decoding: bytes, as: UTF8.self)
                    var written: [UInt8] = []
                    CanonicalJSON.writeString(text, into: &written)
                    #expect(written == Self.reference(bytes), "byte \(special) at \(offset) of \(length)")
                }
            }
        }
        // Bytes just outside the escaped ranges pass through, as do multi-byte scalars.
        let plain = [
            "\u{20}\u{21}\u{23}\u{5B}\u{5D}\u{7F}", "ä\u{308}日本語 — \u{1F600}", String(repeating: "x", count: 64),
        ]
        for text in plain {
            var written: [UInt8] = []
            CanonicalJSON.writeString(text, into: &written)
            #expect(written == Self.reference(Array(text.utf8)), "\(text)")
        }
    }

    /// Equal strings are equal however they are held (inline, one storage, two storages), and a
    /// different byte anywhere makes them different.
    @Test func scalarEqualityHoldsForEveryRepresentation() {
        let long = String(repeating: "field-", count: 5)
        let copy = long
        let rebuilt = String(decoding: Array(long.utf8), as: UTF8.self)
        #expect(long.isScalarEqual(to: copy))
        #expect(long.isScalarEqual(to: rebuilt))
        #expect("fullName".isScalarEqual(to: String(decoding: Array("fullName".utf8), as: UTF8.self)))
        #expect(!"fullName".isScalarEqual(to: "fullNamf"))
        #expect(!long.isScalarEqual(to: String(long.dropLast()) + "x"))
        #expect(!"ä".isScalarEqual(to: "a\u{308}"))
    }

    /// A screen's kept visibility flag follows edits of its tree: a condition added below the
    /// root after the screen was made still hides its node.
    @Test func visibilityFollowsEditsOfTheTree() {
        var properties = JSONObject()
        properties["fieldId"] = .string("other")
        let field = Node(type: .textField, id: "other", properties: properties)
        var screen = Screen(id: "s", root: Node(type: .vstack, id: "root", children: [field]))
        var evaluator = ExpressionEvaluator(answers: Answers())
        #expect(ScreenVisibility.resolve(screen, evaluator: &evaluator).hiddenFields.isEmpty)
        screen.root.children[0].visibleWhen = Predicate.equals(field: "purpose", value: "other")
        var later = ExpressionEvaluator(answers: Answers())
        #expect(ScreenVisibility.resolve(screen, evaluator: &later).hiddenFields == ["other"])
    }

    /// The escape walk the shortcut must agree with.
    private static func reference(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            switch byte {
            case 0x22: output += [0x5C, 0x22]
            case 0x5C: output += [0x5C, 0x5C]
            case 0x08: output += [0x5C, UInt8(ascii: "b")]
            case 0x0C: output += [0x5C, UInt8(ascii: "f")]
            case 0x0A: output += [0x5C, UInt8(ascii: "n")]
            case 0x0D: output += [0x5C, UInt8(ascii: "r")]
            case 0x09: output += [0x5C, UInt8(ascii: "t")]
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
        return output
    }
}
