import ParleyHTTP
import Testing

@testable import ParleyCore
@testable import ParleyServer

/// The one-pass read of a start's body (``StartRequest/plain(_:)``) reads what the handler read
/// before it (``JSONBody/object(_:)``, then its `flow` and `channel` members), or the same error,
/// for a table of edge cases and generated bodies; and leaves everything else to the parser.
@Suite(.timeLimit(.minutes(10))) struct StartRequestTests {
    /// The two members read, or the error's status, type and detail.
    enum Outcome: Equatable {
        case read(flow: JSONValue?, channel: JSONValue?)
        case failed(status: Int, type: String, detail: String?)
    }

    static func request(_ body: [UInt8]) throws(HTTPError) -> HTTPRequest {
        try HTTPRequest(
            method: "POST", target: "/v1/sessions", headers: ["Content-Type": "application/json"], body: body)
    }

    /// Both reads of `body`, the new and the former.
    static func outcomes(_ body: [UInt8]) -> (now: Outcome, before: Outcome) {
        let now: Outcome
        do {
            let (flow, channel) = try StartRequest.read(try request(body))
            now = .read(flow: flow, channel: channel)
        } catch {
            now = .failed(status: Int(error.status.code), type: error.type, detail: error.detail)
        }
        let before: Outcome
        do {
            let object = try JSONBody.object(try request(body))
            before = .read(flow: object["flow"], channel: object["channel"])
        } catch {
            before = .failed(status: Int(error.status.code), type: error.type, detail: error.detail)
        }
        return (now, before)
    }

    /// Both reads agree on `body`; returns whether the fast one read it.
    @discardableResult
    static func check(_ body: String) -> Bool {
        let bytes = Array(body.utf8)
        let (now, before) = outcomes(bytes)
        #expect(now == before, "\(body)")
        return StartRequest.plain(bytes) != nil
    }

    @Test func plainBodiesAreReadInOnePass() {
        for body in [
            #"{"flow":"passport-intake"}"#, #" { "channel" : null , "flow" : "f" } "#,
            #"{"flow":"f","channel":"beta"}"#,
            "{}", #"{"flow":null}"#, #"{"flow":""}"#, #"{"flow":"caf\#u{E9}"}"#, #"{"channel":"c"}"#,
        ] {
            #expect(Self.check(body), "\(body)")
        }
    }

    @Test func everythingElseIsLeftToTheParser() {
        for body in [
            "", " ", "[]", "null", "{", #"{"flow":"f"} x"#, #"{"flow":"f",}"#, #"{"flow":"f","flow":"g"}"#,
            #"{"flow":"f","channel":null,"channel":"c"}"#, #"{"flow":1}"#, #"{"flow":true}"#, #"{"flow":["f"]}"#,
            #"{"flow":{"id":"f"}}"#, #"{"flow":"f","extra":1}"#, #"{"fl\u006fw":"f"}"#, #"{"flow":"f\/g"}"#,
            #"{"flow":"a\u0000"}"#, "{\"flow\":\"a\u{1}\"}", #"{"flow":"f","channel":1}"#, #"{"flow":nul}"#,
            #"{"flow":"f" "channel":"c"}"#,
        ] {
            #expect(!Self.check(body), "\(body)")
        }
        #expect(
            StartRequest.plain([0x7B, 0x22, 0x66, 0x6C, 0x6F, 0x77, 0x22, 0x3A, 0x22, 0xC0, 0xAF, 0x22, 0x7D]) == nil)
    }

    /// Bodies of every combination of the pieces, some cut short: the two reads agree on each.
    @Test func generatedBodiesReadTheSameEitherWay() {
        let names = [#""flow""#, #""channel""#, #""other""#, #""fl\u006fw""#]
        let values = [#""passport-intake""#, "null", #""""#, "1", #""a\"b""#, "{}", #""caf\#u{E9}""#]
        var fast = 0
        var count = 0
        for first in names {
            for second in names + [""] {
                for firstValue in values {
                    for secondValue in values {
                        var body = "{" + first + ":" + firstValue
                        if !second.isEmpty { body += " , " + second + ": " + secondValue }
                        body += "}"
                        if Self.check(body) { fast += 1 }
                        for cut in [1, body.utf8.count / 2, body.utf8.count - 1] {
                            Self.check(String(decoding: Array(body.utf8).prefix(cut), as: UTF8.self))
                        }
                        count += 1
                    }
                }
            }
        }
        #expect(fast > count / 20, "\(fast) of \(count) on the fast path")
    }
}
