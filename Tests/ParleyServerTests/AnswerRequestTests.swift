import ParleyHTTP
import Testing

@testable import ParleyCore
@testable import ParleyServer

/// The one-pass read of an answer's body (``AnswerRequest/plain(_:)``) changes no result and no
/// error: every body gives what the handler read before it (``JSONBody/object(_:)``, then
/// ``SessionRequest``'s `rev`, the `step`, ``SessionRequest``'s `answers`), with and without an
/// `Idempotency-Key` (which always takes the general path), for a table of edge cases and
/// thousands of generated bodies; and the bodies outside its subset are indeed left to the parser.
@Suite(.timeLimit(.minutes(10))) struct AnswerRequestTests {
    /// What a read gave: its three values, or its error's status, type and detail.
    enum Outcome: Equatable {
        case read(rev: Int, step: String, answers: Answers)
        case failed(status: Int, type: String, detail: String?)
    }

    static func request(_ body: [UInt8], key: String? = nil) throws(HTTPError) -> HTTPRequest {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let key { headers.add("Idempotency-Key", key) }
        return try HTTPRequest(method: "POST", target: "/v1/sessions/s/answers", headers: headers, body: body)
    }

    /// What ``AnswerRequest`` reads, through the fast path when `keyed` is false.
    static func outcome(_ body: [UInt8], keyed: Bool, maxLength: Int = 1000) -> Outcome {
        do {
            let read = try AnswerRequest.read(try request(body, key: keyed ? "a-key" : nil), maxLength: maxLength)
            #expect((read.retry != nil) == keyed)
            return .read(rev: read.rev, step: read.step, answers: read.answers)
        } catch {
            return .failed(status: Int(error.status.code), type: error.type, detail: error.detail)
        }
    }

    /// What the handler read before ``AnswerRequest``, step by step as it did.
    static func reference(_ body: [UInt8], maxLength: Int = 1000) -> Outcome {
        do throws(HTTPError) {
            let object = try JSONBody.object(try request(body))
            let rev = try SessionRequest.rev(object)
            guard case .string(let step) = object["step"] else {
                throw ServiceProblem.malformedBody("\"step\" is required: the id of the step you answer")
            }
            let answers = try SessionRequest.answers(object, maxLength: maxLength)
            return .read(rev: rev, step: step, answers: answers)
        } catch {
            return .failed(status: Int(error.status.code), type: error.type, detail: error.detail)
        }
    }

    /// Both paths read `body` as before; returns whether the fast one read it.
    @discardableResult
    static func check(_ body: [UInt8], maxLength: Int = 1000, _ comment: Comment? = nil) -> Bool {
        let comment = comment ?? Comment(rawValue: String(decoding: body, as: UTF8.self))
        let before = reference(body, maxLength: maxLength)
        #expect(outcome(body, keyed: false, maxLength: maxLength) == before, comment)
        #expect(outcome(body, keyed: true, maxLength: maxLength) == before, comment)
        guard let plain = AnswerRequest.plain(body) else { return false }
        // What the fast path read is what the parser and ``Answers`` read, member for member.
        guard case .object(let parsed)? = try? JSONParser.parse(body), let answers = parsed["answers"] else {
            Issue.record("the parser refuses a body read on the fast path: \(String(decoding: body, as: UTF8.self))")
            return true
        }
        #expect(parsed.count == 3, comment)
        #expect(parsed["rev"]?.numberValue?.intValue == plain.rev, comment)
        #expect(parsed["step"] == .string(plain.step), comment)
        #expect((try? Answers(answers)) == plain.answers, comment)
        return true
    }

    static let fastBodies = [
        #"{"rev":1,"step":"country","answers":{"passportCountry":"FR","purpose":"tourism"}}"#,
        #"{"answers":{"purpose":"tourism","passportCountry":"FR"},"step":"country","rev":1}"#,
        " \t\r\n{ \"rev\" : 12 ,\n\"step\":\"s\" , \"answers\" : { \"a\" : null , \"b\":\"\" } }\n ",
        #"{"rev":999999999999999,"step":"","answers":{}}"#,
        #"{"rev":3,"step":"st\#u{E9}p","answers":{"\#u{E4}":"a\#u{308}","a\#u{308}":"\#u{E4}","\#u{1F600}":"x"}}"#,
        #"{"rev":1,"step":"s","answers":{"a":null,"b":null}}"#,
        #"{"rev":1,"step":"s","answers":{"z":"1","y":"2","x":"3","w":"4","v":"5","u":"6","a":"7"}}"#,
        #"{"rev":1,"step":"s","answers":{"long":"a value well past the fifteen bytes of a small string"}}"#,
        #"{"rev":1,"step":"s","answers":{"a":"/ ' < > & \#u{7F}"}}"#,
    ]

    static let generalBodies = [
        // Outside the subset but valid: the general path reads them.
        #"{"rev":1,"step":"s","answers":{"a":"x"},"extra":true}"#,
        #"{"rev":1,"step":"s\/t","answers":{}}"#, #"{"rev":1,"step":"s","answers":{"a":"\n"}}"#,
        #"{"rev":1,"step":"s","answers":{"\u0061":"x"}}"#, #"{"rev":1.0,"step":"s","answers":{}}"#,
        #"{"rev":1e0,"step":"s","answers":{}}"#, #"{"rev":10E-1,"step":"s","answers":{}}"#,
        #"{"rev":1234567890123456,"step":"s","answers":{}}"#, #"{"r\u0065v":1,"step":"s","answers":{}}"#,
        // Errors, each the general path's.
        "", " ", "{}", "[]", "null", #""x""#, "{", #"{"rev":1,"step":"s","answers":{"a":"x"}"#,
        #"{"rev":1,"step":"s","answers":{"a":"x"}} x"#, #"{"rev":1,"step":"s","answers":{"a":"x"}}}"#,
        #"{"rev":1,"step":"s","answers":{"a":"x",}}"#, #"{"rev":1,"step":"s","answers":{"a":"x"},}"#,
        #"{"rev":0,"step":"s","answers":{}}"#, #"{"rev":-1,"step":"s","answers":{}}"#,
        #"{"rev":01,"step":"s","answers":{}}"#, #"{"rev":1.5,"step":"s","answers":{}}"#,
        #"{"rev":"1","step":"s","answers":{}}"#, #"{"rev":null,"step":"s","answers":{}}"#,
        #"{"rev":1e400,"step":"s","answers":{}}"#, #"{"rev":99999999999999999999,"step":"s","answers":{}}"#,
        #"{"rev":1-2,"step":"s","answers":{}}"#, #"{"rev":1 2,"step":"s","answers":{}}"#,
        #"{"step":"s","answers":{}}"#, #"{"rev":1,"answers":{}}"#, #"{"rev":1,"step":"s"}"#,
        #"{"rev":1,"step":1,"answers":{}}"#, #"{"rev":1,"step":null,"answers":{}}"#,
        #"{"rev":1,"step":"s","answers":[]}"#, #"{"rev":1,"step":"s","answers":null}"#,
        #"{"rev":1,"step":"s","answers":{"a":1}}"#, #"{"rev":1,"step":"s","answers":{"a":true}}"#,
        #"{"rev":1,"step":"s","answers":{"a":{"b":"c"}}}"#, #"{"rev":1,"step":"s","answers":{"a":["x"]}}"#,
        #"{"rev":1,"rev":1,"step":"s","answers":{}}"#, #"{"rev":1,"step":"s","step":"s","answers":{}}"#,
        #"{"rev":1,"step":"s","answers":{},"answers":{}}"#, #"{"rev":1,"step":"s","answers":{"a":"x","a":"y"}}"#,
        #"{"rev":1,"step":"s","answers":{"a":null,"a":"y"}}"#,
        #"{"rev":1,"step":"s","answers":{"b":"","a":"","b":null}}"#,
        #"{"rev":1,"step":"s","answers":{"a":"\u0000"}}"#, #"{"rev":1,"step":"s","answers":{"a\u0000":"x"}}"#,
        #"{"rev":1,"step":"s","answers":{"a":"x\"}}"#, #"{"rev":1,"step":"s","answers":{"a":nul}}"#,
        #"{"rev":1,"step":"s","answers":{"a":nullx}}"#, #"{"rev":1,"step":"s","answers":{"a" "x"}}"#,
        #"{"rev":1 "step":"s","answers":{}}"#, #"{rev:1,"step":"s","answers":{}}"#,
        #"{"rev":1,"step":"s","answers":{"\u00e4":"x","\#u{E4}":"y"}}"#,
    ]

    @Test func theCommonShapesAreReadInOnePass() {
        for body in Self.fastBodies {
            #expect(Self.check(Array(body.utf8)), "\(body)")
        }
    }

    @Test func everythingElseIsLeftToTheGeneralPath() {
        for body in Self.generalBodies {
            #expect(!Self.check(Array(body.utf8)), "\(body)")
        }
        // Raw control characters, invalid UTF-8 (a lone continuation, an overlong `/`, a surrogate,
        // beyond U+10FFFF, truncated), a byte order mark.
        let prefix = Array(#"{"rev":1,"step":"s","answers":{"a":""#.utf8)
        for bad: [UInt8] in [
            [0x00], [0x01], [0x1F], [0x0A], [0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xE2, 0x82],
        ] {
            #expect(!Self.check(prefix + bad + Array(#""}}"#.utf8)), "\(bad)")
            #expect(!Self.check(Array(#"{"rev":1,"answers":{},"step":""#.utf8) + bad + [0x22, 0x7D]), "\(bad)")
        }
        #expect(!Self.check([0xEF, 0xBB, 0xBF] + Array(Self.fastBodies[0].utf8)))
    }

    /// Strings are scanned eight bytes at a time: a quote, an escape, a control character or a
    /// byte above 0x7F is found at every offset, on either side of a word boundary.
    @Test func everyByteThatEndsAPlainRunIsFoundAtEveryOffset() {
        for offset in 0...17 {
            let padding = Array(repeating: UInt8(ascii: "a"), count: offset)
            for stop: [UInt8] in [
                [], [0x5C, 0x6E], [0x5C, 0x22], [0x09], [0x1F], [0x7F], [0xC3, 0xA9], [0xC3], [0xFF],
            ] {
                let value = padding + stop + Array("bcdefghij".utf8)
                let body =
                    Array(#"{"rev":1,"answers":{"a":""#.utf8) + value + Array(#""},"step":""#.utf8) + value
                    + Array(#""}"#.utf8)
                Self.check(body)
                #expect(
                    (AnswerRequest.plain(body) != nil) == (stop.isEmpty || stop == [0x7F] || stop == [0xC3, 0xA9]),
                    "offset \(offset), \(stop)")
            }
        }
    }

    /// The answer length limit is checked on both paths, with the same message.
    @Test func anAnswerOverTheLimitIsRefusedAsBefore() {
        let body = Array(#"{"rev":1,"step":"s","answers":{"b":"\#u{E9}\#u{E9}\#u{E9}","a":"abcd","c":"x"}}"#.utf8)
        #expect(Self.check(body, maxLength: 3))
        guard case .failed(_, _, let detail) = Self.outcome(body, keyed: false, maxLength: 3) else {
            Issue.record("an answer of 4 characters passed a limit of 3")
            return
        }
        #expect(detail == "the answer for \"a\" is longer than 3 characters")
        #expect(Self.check(body, maxLength: 4))
    }

    /// The media type and the empty body are checked first, as ``JSONBody`` does.
    @Test func theMediaTypeAndAnEmptyBodyComeFirst() throws {
        let request = try HTTPRequest(
            method: "POST", target: "/v1/sessions/s/answers", headers: ["Content-Type": "text/plain"],
            body: Array(Self.fastBodies[0].utf8))
        #expect(throws: HTTPError.self) { try AnswerRequest.read(request, maxLength: 10) }
        do {
            _ = try AnswerRequest.read(request, maxLength: 10)
        } catch {
            #expect(error.status.code == 415)
        }
        #expect(Self.outcome([], keyed: false) == Self.reference([]))
    }

    /// A request with an `Idempotency-Key` is parsed in full: its retry's fingerprint hashes the
    /// parsed body, and a malformed key is refused only after the body is read, as before.
    @Test func aKeyedRequestIsFingerprintedAndItsKeyCheckedAfterTheBody() throws {
        let body = Array(Self.fastBodies[1].utf8)
        let read = try AnswerRequest.read(try Self.request(body, key: "k-1"), maxLength: 100)
        #expect(read.retry?.key == "k-1")
        let object = try JSONBody.object(try Self.request(body))
        #expect(read.retry?.fingerprint == SessionRequest.fingerprint("answers", object))
        for (text, type) in [
            (Self.fastBodies[0], "bad-parameter"), (#"{"rev":0,"step":"s","answers":{}}"#, "malformed-body"),
        ] {
            var request = try Self.request(Array(text.utf8), key: "k-1")
            request.headers.add("Idempotency-Key", "k-2")
            #expect(throws: HTTPError.self) { try AnswerRequest.read(request, maxLength: 100) }
            do {
                _ = try AnswerRequest.read(request, maxLength: 100)
            } catch {
                #expect(error.type.hasSuffix(":" + type), "\(text)")
            }
        }
    }

    /// Thousands of bodies made of the pieces the fast path decides on (and a few mutations of
    /// them): both paths agree on each, and many of them are read on the fast path.
    @Test func generatedBodiesReadTheSameEitherWay() {
        var random = BodyRandom(seed: 0x2027)
        var fast = 0
        let total = 4000
        for _ in 0..<total {
            let body = Self.body(&random)
            if Self.check(body, maxLength: random.below(3) == 0 ? 3 : 1000) { fast += 1 }
        }
        // The generator is meant to land on both sides often.
        #expect(fast > total / 5 && fast < total * 4 / 5, "\(fast) of \(total) on the fast path")
    }

    static let names = [
        "a", "b", "ab", "\u{E4}", "a\u{308}", "", "passportCountry", "\u{1F600}", "c", "d", "email", "purpose",
        "visa", "x1", "x2", "x10",
    ]
    static let strings = [
        #""""#, #""x""#, #""FR""#, #""tourism""#, "\"\u{E9}t\u{E9}\"", "\"\u{1F600}\"",
        #""a value well past the fifteen bytes""#,
    ]
    /// Strings the fast path leaves to the parser (escapes, a raw tab), or that are not strings.
    static let otherStrings = [#""a\"b""#, #""a\\b""#, #""\u00e4""#, #""\u0000""#, #""\/""#, "\"tab\tin\"", #""x"#]
    static let revs = [
        "0", "-1", "1.0", "1e2", "01", "999999999999999", "1000000000000000", "\"1\"", "null", "true", "1.5",
        "2E0", "",
    ]
    static let spaces = [" ", "\n", "\t ", "\r\n"]

    static func body(_ random: inout BodyRandom) -> [UInt8] {
        func pick(_ items: [String]) -> String { items[random.below(items.count)] }
        func space() -> String { random.below(8) == 0 ? pick(spaces) : "" }
        func string() -> String { random.below(12) == 0 ? pick(otherStrings) : pick(strings) }
        func answerValue() -> String {
            switch random.below(10) {
            case 0: return "null"
            case 1: return pick(["1", "true", "[]", "{}", "nul", "{\"x\":\"y\"}"])
            default: return string()
            }
        }
        func answers() -> String {
            guard random.below(12) != 0 else { return pick(["[]", "null", "\"x\"", "1"]) }
            let members = (0..<random.below(5)).map { _ in
                space() + "\"" + pick(names) + "\"" + space() + ":" + space() + answerValue() + space()
            }
            return "{" + space() + members.joined(separator: ",") + "}"
        }
        var members: [(String, String)] = [
            ("rev", random.below(6) == 0 ? pick(revs) : "\(1 + random.below(40))"),
            ("step", random.below(8) == 0 ? pick(["1", "null", "{}", #""s\/""#]) : string()),
            ("answers", answers()),
        ]
        switch random.below(16) {
        case 0: members.remove(at: random.below(members.count))
        case 1: members.append(members[random.below(members.count)])
        case 2: members.append((pick(["extra", "Rev", "r\\u0065v", "step "]), answerValue()))
        default: break
        }
        members.shuffle(using: &random)
        let text =
            space() + "{" + space()
            + members.map { "\"\($0.0)\"" + space() + ":" + space() + $0.1 + space() }.joined(separator: ",")
            + "}" + space()
        var bytes = Array(text.utf8)
        switch random.below(24) {
        case 0: bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
        case 1: bytes += Array(pick(["x", "}", ",", "{}", " 1", "\u{0}", "\u{A0}", "\u{FEFF}"]).utf8)
        case 2 where !bytes.isEmpty: bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
        case 3 where !bytes.isEmpty: bytes.remove(at: random.below(bytes.count))
        default: break
        }
        return bytes
    }
}

/// Knuth's MMIX linear congruential generator, its high bits folded into the low ones: a
/// deterministic sequence, so a failing body reproduces from the seed.
struct BodyRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state ^ (state >> 29)
    }

    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
