import ParleyClient
import Testing

/// The WHATWG event-stream rules (HTML §9.2.6), fed whole and split at every byte boundary.
@Suite(.timeLimit(.minutes(10))) struct EventStreamParserTests {
    /// Every event `stream` yields when fed in the given pieces, then finished.
    static func events(_ pieces: [[UInt8]]) throws -> (events: [ServerSentEvent], parser: EventStreamParser) {
        var parser = EventStreamParser()
        var events: [ServerSentEvent] = []
        for piece in pieces { events += try parser.feed(piece) }
        parser.finish()
        return (events, parser)
    }

    /// The stream whole, and split once at every byte boundary, and byte by byte: all the same.
    static func everySplit(_ text: String) throws -> [ServerSentEvent] {
        let bytes = Array(text.utf8)
        let whole = try events([bytes]).events
        for cut in 0...bytes.count {
            #expect(try events([Array(bytes[..<cut]), Array(bytes[cut...])]).events == whole, "split at \(cut)")
        }
        #expect(try events(bytes.map { [$0] }).events == whole, "byte by byte")
        return whole
    }

    @Test func snapshotEventsCarryTypeDataAndId() throws {
        let stream =
            "id: 2\nevent: snapshot\ndata: {\"rev\":2}\n\n: heartbeat\n\nid: 3\nevent: snapshot\ndata: {\"rev\":3}\n\n"
        #expect(
            try Self.everySplit(stream) == [
                ServerSentEvent(type: "snapshot", data: "{\"rev\":2}", lastEventId: "2"),
                ServerSentEvent(type: "snapshot", data: "{\"rev\":3}", lastEventId: "3"),
            ])
        #expect(try Self.events([Array(stream.utf8)]).parser.comments == 1)
    }

    @Test(arguments: ["\n", "\r", "\r\n"])
    func everyLineEndingIsOneLineEnd(_ end: String) throws {
        let stream = ["data: a", "data: b", "", "data:c", "", ""].joined(separator: end)
        #expect(try Self.everySplit(stream) == [ServerSentEvent(data: "a\nb"), ServerSentEvent(data: "c")])
    }

    @Test func fieldsFollowTheStandard() throws {
        let stream = [
            "\u{FEFF}data", "", "data:", "data:", "", "event", "data: x", "", "data:  two spaces", "",
            "id: a\u{0}b", "data: kept", "", "unknown: field", "data: y", "", "retry: 12x", "retry: 2500", "",
        ].joined(separator: "\n")
        let (events, parser) = try Self.events([Array(stream.utf8)])
        #expect(
            events == [
                ServerSentEvent(data: ""), ServerSentEvent(data: "\n"), ServerSentEvent(data: "x"),
                ServerSentEvent(data: " two spaces"), ServerSentEvent(data: "kept"), ServerSentEvent(data: "y"),
            ])
        #expect(parser.lastEventId == "", "an id containing U+0000 is ignored")
        #expect(parser.reconnectionMilliseconds == 2500)
        #expect(try Self.everySplit(stream) == events)
    }

    @Test func anEventWithoutItsBlankLineIsDiscardedAtTheEnd() throws {
        #expect(try Self.everySplit("data: done\n\ndata: partial\n") == [ServerSentEvent(data: "done")])
        #expect(try Self.everySplit("data: done\n\ndata: partial") == [ServerSentEvent(data: "done")])
    }

    @Test func theLastEventIdOutlivesItsEventAndAnEmptyIdResetsIt() throws {
        let (events, parser) = try Self.events([Array("id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n".utf8)])
        #expect(events.map(\.lastEventId) == ["7", "7", ""])
        #expect(parser.lastEventId == "")
    }

    @Test func multiByteCharactersSurviveEverySplit() throws {
        #expect(try Self.everySplit("data: Grüße, 世界 🌍\n\n") == [ServerSentEvent(data: "Grüße, 世界 🌍")])
    }

    @Test func anEndlessLineIsRefused() throws {
        var parser = EventStreamParser(maximumLineBytes: 16)
        #expect(try parser.feed(Array("data: 0123456789\n".utf8)).count == 0)
        #expect(throws: ParleyClientError.self) { try parser.feed(Array("data: 0123456789ABCDEF".utf8)) }
    }
}
