import Testing

@testable import ParleyHTTP

/// The connection's protocol logic without sockets: bytes in, steps and actions out.
@Suite(.timeLimit(.minutes(10))) struct ConnectionStateMachineTests {
    static let date = Array("Date: Mon, 23 Nov 2026 11:00:00 GMT\r\n".utf8)

    static func make(_ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) -> ConnectionStateMachine {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configure(&configuration)
        return ConnectionStateMachine(limits: ConnectionLimits(configuration), now: 0)
    }

    static let route = HTTPRoute { _, _ in .now(.text("ok")) }

    /// Everything queued for writing, as text; the queue is emptied as if the socket took it all.
    static func written(_ machine: inout ConnectionStateMachine, now: UInt64 = 1) -> (
        String, ConnectionStateMachine.Action
    ) {
        var bytes: [UInt8] = []
        let action = machine.flush(now: now) { first, second in
            bytes += first
            if let second { bytes += second }
            return .bytes(first.count + (second?.count ?? 0))
        }
        return (String(decoding: bytes, as: UTF8.self), action)
    }

    static func feed(_ machine: inout ConnectionStateMachine, _ text: String, now: UInt64 = 1) {
        Array(text.utf8).withUnsafeBytes { machine.received($0, now: now) }
    }

    static func next(_ machine: inout ConnectionStateMachine, now: UInt64 = 1) -> ConnectionStateMachine.Step {
        machine.advance(now: now, date: date) { _ in route }
    }

    /// Lends `text` the way the event loop lends its read buffer, advances once, then overwrites
    /// the buffer as the loop's next read would: what the machine kept must not depend on it.
    static func lendAndAdvance(_ machine: inout ConnectionStateMachine, _ text: String) -> ConnectionStateMachine.Step {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: text.utf8.count, alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: Array(text.utf8))
        machine.lend(UnsafeRawBufferPointer(buffer), now: 1)
        let step = next(&machine)
        buffer.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "X"))
        return step
    }

    @Test func lentBytesArePipelinedRequestsAndABodyKeptPastTheirBuffer() {
        var machine = Self.make()
        let text = "POST /1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET /2 HTTP/1.1\r\nHo"
        guard case .dispatch(let first) = Self.lendAndAdvance(&machine, text) else { Issue.record("first"); return }
        #expect(first.request.path == "/1")
        #expect(
            first.request.body == Array("hello".utf8), "the body came from the lent buffer, kept before it was reused")
        _ = machine.respond(.text("1"), date: Self.date, draining: false, now: 2)
        guard case .wait = Self.next(&machine) else { Issue.record("dispatched a partial head"); return }
        Self.feed(&machine, "st: x\r\n\r\n")
        guard case .dispatch(let second) = Self.next(&machine) else { Issue.record("second"); return }
        #expect(second.request.path == "/2")
    }

    @Test func aLentPartialHeadResumesFromWhatWasKept() {
        var machine = Self.make()
        guard case .wait = Self.lendAndAdvance(&machine, "GET /a HTTP/1.1\r\nHo") else {
            Issue.record("dispatched a partial head")
            return
        }
        #expect(machine.input == Array("GET /a HTTP/1.1\r\nHo".utf8))
        Self.feed(&machine, "st: x\r\n\r\n")
        guard case .dispatch(let exchange) = Self.next(&machine) else { Issue.record("not dispatched"); return }
        #expect(exchange.request.path == "/a" && exchange.request.headers["Host"] == "x")
        _ = machine.respond(.text("hi"), date: Self.date, draining: false, now: 2)
        _ = Self.written(&machine)
        #expect(machine.isIdle && machine.input.isEmpty)
    }

    @Test func aLentMalformedHeadIsRejectedAndNothingOfItIsKept() {
        var machine = Self.make()
        guard case .rejected(let status, _) = Self.lendAndAdvance(&machine, "GET /a HTTP/1.1\r\nBad Header\r\n\r\n")
        else {
            Issue.record("not rejected")
            return
        }
        #expect(status == 400)
        #expect(machine.input.isEmpty)
    }

    @Test func aRequestSplitAcrossReadsIsDispatchedOnceComplete() throws {
        var machine = Self.make()
        Self.feed(&machine, "GET /a HTTP/1.1\r\nHo")
        guard case .wait = Self.next(&machine) else { Issue.record("dispatched a partial head"); return }
        #expect(machine.interest == .read)
        Self.feed(&machine, "st: x\r\n\r\n")
        guard case .dispatch(let exchange) = Self.next(&machine) else { Issue.record("not dispatched"); return }
        #expect(exchange.request.path == "/a")
        #expect(machine.interest == .none, "no reading while the responder works")
        let answered = machine.respond(.text("hi"), date: Self.date, draining: false, now: 2)
        #expect(answered?.bytes == 2)
        let (text, action) = Self.written(&machine)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(text.hasSuffix("\r\n\r\nhi"))
        #expect(action == .none)
        #expect(machine.isIdle)
    }

    @Test func pipelinedRequestsComeOutOneAtATimeInOrder() {
        var machine = Self.make()
        Self.feed(&machine, "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        guard case .dispatch(let first) = Self.next(&machine) else { Issue.record("first"); return }
        guard case .wait = Self.next(&machine) else { Issue.record("second before first answered"); return }
        _ = machine.respond(.text("1"), date: Self.date, draining: false, now: 2)
        guard case .dispatch(let second) = Self.next(&machine) else { Issue.record("second"); return }
        #expect([first.request.path, second.request.path] == ["/1", "/2"])
    }

    @Test func aMalformedHeadIsRejectedAndTheConnectionLingersAfterTheError() {
        var machine = Self.make()
        Self.feed(&machine, "GET /a HTTP/1.1\r\nBad Header\r\n\r\n")
        guard case .rejected(let status, _) = Self.next(&machine) else { Issue.record("not rejected"); return }
        #expect(status == 400)
        let (text, action) = Self.written(&machine)
        #expect(text.contains("Connection: close"))
        #expect(action == .linger)
        machine.startLingering(now: 2)
        #expect(machine.isIdle && machine.discardsInput)
    }

    @Test func connectionCloseFromTheClientClosesAfterTheResponse() {
        var machine = Self.make()
        Self.feed(&machine, "GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        guard case .dispatch = Self.next(&machine) else { Issue.record("not dispatched"); return }
        _ = machine.respond(.text("bye"), date: Self.date, draining: false, now: 2)
        #expect(Self.written(&machine).1 == .linger)
    }

    @Test func timeoutsAnswer408ForASlowHeadAndCloseAnIdleConnection() {
        var slow = Self.make { $0.headerReadTimeout = .seconds(1) }
        Self.feed(&slow, "GET /a HTTP/1.1\r\n", now: 10)
        _ = Self.next(&slow, now: 10)
        #expect(slow.tick(now: 500_000_010, date: Self.date, handshaking: false) == .none)
        #expect(slow.tick(now: 1_000_000_011, date: Self.date, handshaking: false) == .flush)
        #expect(Self.written(&slow).0.hasPrefix("HTTP/1.1 408"))

        var idle = Self.make { $0.keepAliveIdleTimeout = .seconds(1) }
        #expect(idle.tick(now: 2_000_000_000, date: Self.date, handshaking: false) == .close)
    }

    @Test func aStreamWritesItsChunksAndHeartbeatsThenEndsAtShutdown() {
        var machine = Self.make { $0.streamHeartbeatInterval = .seconds(1) }
        Self.feed(&machine, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        guard case .dispatch = Self.next(&machine) else { Issue.record("not dispatched"); return }
        let stream = ResponseStream(maxQueuedBytes: 1024, heartbeat: Array(":\n\n".utf8))
        _ = machine.respond(
            .streaming(stream, contentType: "text/event-stream"), date: Self.date, draining: false, now: 2)
        #expect(machine.stream === stream)
        let head = Self.written(&machine, now: 2).0
        #expect(head.contains("Connection: close\r\n") && !head.contains("Content-Length"))
        #expect(machine.streamed([Array("data: 1\n\n".utf8)], ended: false) == .flush)
        #expect(Self.written(&machine, now: 3).0 == "data: 1\n\n")
        #expect(machine.tick(now: 3 + 500_000_000, date: Self.date, handshaking: false) == .none)
        #expect(machine.tick(now: 3 + 1_000_000_001, date: Self.date, handshaking: false) == .flush)
        #expect(Self.written(&machine, now: 1_000_000_010).0 == ":\n\n")
        #expect(machine.shutdown() == .linger, "nothing pending: the stream ends at once")
    }

    @Test func aReaderThatFallsBehindThePerStreamBoundIsCutOff() {
        var machine = Self.make()
        Self.feed(&machine, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        guard case .dispatch = Self.next(&machine) else { Issue.record("not dispatched"); return }
        let stream = ResponseStream(maxQueuedBytes: 200)
        _ = machine.respond(
            .streaming(stream, contentType: "text/event-stream"), date: Self.date, draining: false, now: 2)
        // Nothing is written (the client does not read): the 108-byte head plus 2 × 60 bytes pass 200.
        #expect(machine.streamed([Array(repeating: 65, count: 60)], ended: false) == .flush)
        #expect(machine.streamed([Array(repeating: 65, count: 60)], ended: false) == .close)
    }

    @Test func aStreamIsNotOpenedForHeadOrWhileDraining() {
        for (method, draining) in [("HEAD", false), ("GET", true)] {
            var machine = Self.make()
            Self.feed(&machine, "\(method) /events HTTP/1.1\r\nHost: x\r\n\r\n")
            guard case .dispatch = Self.next(&machine) else { Issue.record("not dispatched"); return }
            let stream = ResponseStream(maxQueuedBytes: 100)
            _ = machine.respond(
                .streaming(stream, contentType: "text/event-stream"), date: Self.date, draining: draining, now: 2)
            #expect(machine.stream == nil)
        }
    }

    @Test func endOfInputWhileStreamingClosesButARequestInFlightIsStillAnswered() {
        var machine = Self.make()
        Self.feed(&machine, "GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        guard case .dispatch = Self.next(&machine) else { Issue.record("not dispatched"); return }
        #expect(machine.inputEnded() == .none)
        _ = machine.respond(.text("late"), date: Self.date, draining: false, now: 2)
        let (text, action) = Self.written(&machine)
        #expect(text.contains("Connection: close"))
        #expect(action == .linger)
    }
}
