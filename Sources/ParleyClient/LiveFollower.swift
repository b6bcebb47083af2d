import ParleyCore

/// The reconnect loop behind ``ParleySession/followLive()``: opens the session's event stream,
/// parses it (``EventStreamParser``), hands every newer snapshot to the session, and reopens it
/// with `Last-Event-ID` after a drop, waiting the server's `retry:` time or backing off.
struct LiveFollower {
    let session: ParleySession

    /// Runs until a terminal snapshot, a refusal, exhausted retries or cancellation.
    func run(_ deliver: (ParleySnapshot) -> Void) async throws {
        let endpoint = session.endpoint
        guard let transport = endpoint.transport as? any ParleyStreamingTransport else {
            throw ParleyClientError.invalidRequest("following live needs a ParleyStreamingTransport")
        }
        var parser = EventStreamParser()
        var failures = 0
        while true {
            try Task.checkCancellation()
            var connected = false
            do {
                let response = try await transport.open(try await request(endpoint))
                switch response.status {
                case 200:
                    guard response.headers["content-type"]?.hasPrefix("text/event-stream") == true else {
                        throw ParleyClientError.invalidResponse("the events endpoint did not send text/event-stream")
                    }
                    connected = true
                    failures = 0
                    if try await follow(response.body, parser: &parser, deliver) { return }
                case 204:
                    return  // WHATWG §9.2.3: 204 No Content means "stop reconnecting".
                case 502, 503, 504:
                    break
                default:
                    throw ParleySession.failure(try await Self.collect(response))
                }
            } catch let error as ParleyClientError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // No head or a broken body: a transient failure, reconnect.
            }
            parser.finish()
            try await Task.sleep(for: delay(connected: connected, failures: &failures, parser: parser))
        }
    }

    /// Feeds the body to the parser; true when a terminal snapshot ended the follow.
    private func follow(
        _ body: AsyncThrowingStream<[UInt8], any Error>, parser: inout EventStreamParser,
        _ deliver: (ParleySnapshot) -> Void
    ) async throws -> Bool {
        for try await chunk in body {
            for event in try parser.feed(chunk) where event.type == "snapshot" {
                let candidate: ParleySnapshot
                do {
                    candidate = try ParleySnapshot(json: try JSONParser.parse(Array(event.data.utf8)))
                } catch let error as ParleyClientError {
                    throw error
                } catch {
                    throw ParleyClientError.invalidResponse("a snapshot event is not JSON")
                }
                guard candidate.session == session.id else {
                    throw ParleyClientError.invalidResponse("a snapshot event names another session")
                }
                if await session.accept(candidate) { deliver(candidate) }
                if candidate.status != .active { return true }
            }
        }
        return false
    }

    /// `GET …/events` with `Last-Event-ID`: the shown rev, so the server sends only what is newer.
    private func request(_ endpoint: ParleyEndpoint) async throws -> ParleyRequest {
        var headers = endpoint.headers
        headers["Parley-Core"] = endpoint.core
        headers["Accept"] = "text/event-stream"
        headers["Last-Event-ID"] = String(await session.snapshot.rev)
        return ParleyRequest(method: "GET", path: "/v1/sessions/\(session.id)/events", headers: headers)
    }

    /// After a clean close, the server's `retry:` time (else the first backoff step); after a
    /// failure, the endpoint's backoff, never shorter than `retry:`. Throws once retries run out.
    private func delay(connected: Bool, failures: inout Int, parser: EventStreamParser) throws -> Duration {
        let policy = session.endpoint.retry
        let floor = Duration.milliseconds(parser.reconnectionMilliseconds ?? 0)
        if connected {
            return max(floor, .milliseconds(parser.reconnectionMilliseconds ?? policy.initialDelayMilliseconds))
        }
        failures += 1
        if failures >= policy.attempts {
            throw ParleyClientError(.exhausted, "gave up following after \(failures) failed connections")
        }
        return max(floor, policy.delay(beforeRetry: failures))
    }

    /// A refusal's body (at most 64 KiB of it), to read its problem document.
    private static func collect(_ response: ParleyStreamingResponse) async throws -> ParleyResponse {
        var body: [UInt8] = []
        for try await chunk in response.body {
            body += chunk.prefix(65_536 - body.count)
            if body.count >= 65_536 { break }
        }
        return ParleyResponse(status: response.status, headers: response.headers, body: body)
    }
}
