/// Bytes waiting to be written on one connection. Heads and small bodies are coalesced into an
/// owned buffer that is reused between responses; large bodies, and any but the smallest body
/// that follows its head alone, are queued by reference, never copied. `drain` hands out at most
/// two pieces per call, so a response's head and body leave in a single `writev`.
struct OutputQueue {
    private struct Segment {
        var bytes: [UInt8]
        /// Built here (reusable), as opposed to a responder's body.
        let owned: Bool
    }

    /// Bodies up to this size are copied next to their head instead of queued separately…
    static let coalesceLimit = 16 * 1024
    /// …unless the head is all that is queued and the body is larger than this: then head and
    /// body leave in one `writev` with the body read where it lies. The usual keep-alive
    /// exchange is one response at a time, and a cached screen's body is read from memory the
    /// loop touches on every request, where a copy wrote it into this connection's buffer: on
    /// a server with hundreds of connections those buffers are cold, and callgrind's cache
    /// simulation counted 17 more first-level write misses a request at 256 connections.
    /// A pipelined batch still coalesces (its later bodies find the queue busy).
    static let referenceLimit = 256
    /// Owned buffers that grew past this are released rather than kept for reuse.
    static let retainLimit = 256 * 1024

    private var segments: [Segment] = []
    private var sentInFirst = 0
    /// Where the last head appended starts in the owned tail.
    private var lastHeadStart = 0
    /// Whether a small body may go by reference (``referenceLimit``). Off for TLS, whose writes
    /// take one piece at a time: a referenced body would be a second record and a second write.
    var referencesSmallBodies = true
    private var spare: [UInt8] = []

    /// Whether everything has been written.
    var isEmpty: Bool { segments.isEmpty }

    /// Bytes queued and not yet written.
    private(set) var pendingBytes = 0

    /// Runs `body` on the owned buffer at the tail, starting one if needed.
    mutating func appendOwned(_ body: (inout [UInt8]) -> Void) {
        openOwnedTail()
        let before = segments[segments.count - 1].bytes.count
        body(&segments[segments.count - 1].bytes)
        pendingBytes += segments[segments.count - 1].bytes.count - before
    }

    /// Appends a response's head to the owned buffer at the tail (starting one if needed);
    /// returns whether a body follows. Not through ``appendOwned(_:)``: a closure capturing the
    /// response copied it.
    mutating func appendHead(
        _ response: HTTPResponse, date: [UInt8], keepAlive: Bool, announceKeepAlive: Bool, headOnly: Bool
    ) -> Bool {
        openOwnedTail()
        let before = segments[segments.count - 1].bytes.count
        lastHeadStart = before
        let sendsBody = ResponseEncoder.encodeHead(
            response, into: &segments[segments.count - 1].bytes, date: date, keepAlive: keepAlive,
            announceKeepAlive: announceKeepAlive, headOnly: headOnly)
        pendingBytes += segments[segments.count - 1].bytes.count - before
        return sendsBody
    }

    private mutating func openOwnedTail() {
        guard segments.last?.owned != true else { return }
        var buffer: [UInt8] = []
        swap(&buffer, &spare)
        if buffer.capacity == 0 { buffer.reserveCapacity(4096) }
        segments.append(Segment(bytes: buffer, owned: true))
    }

    /// Queues a response body: copied when small, referenced when large.
    mutating func appendBody(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let behindItsHeadAlone = segments.count == 1 && sentInFirst == 0 && lastHeadStart == 0
        let referenced = referencesSmallBodies && bytes.count > OutputQueue.referenceLimit && behindItsHeadAlone
        if bytes.count <= OutputQueue.coalesceLimit && !referenced {
            appendOwned { $0.append(contentsOf: bytes) }
        } else {
            segments.append(Segment(bytes: bytes, owned: false))
            pendingBytes += bytes.count
        }
    }

    /// Frees the reusable buffer: an idle stream keeps no output memory between its events.
    mutating func releaseSpare() { spare = [] }

    /// Writes until empty or `write` stops making progress; `write` gets the next one or two
    /// pieces and returns what the socket did. Returns the blocking status, or `.done`.
    mutating func drain(
        _ write: (UnsafeRawBufferPointer, UnsafeRawBufferPointer?) -> IOStatus
    ) -> IOStatus {
        while !segments.isEmpty {
            let first = segments[0].bytes
            let second = segments.count > 1 ? segments[1].bytes : nil
            let offset = sentInFirst
            let status = first.withUnsafeBytes { firstBytes in
                let head = UnsafeRawBufferPointer(rebasing: firstBytes[offset...])
                guard let second else { return write(head, nil) }
                return second.withUnsafeBytes { write(head, $0) }
            }
            guard case .bytes(let count) = status else { return status }
            consume(count)
        }
        return .done
    }

    private mutating func consume(_ count: Int) {
        pendingBytes -= count
        var remaining = count
        while remaining > 0, !segments.isEmpty {
            let left = segments[0].bytes.count - sentInFirst
            if remaining < left {
                sentInFirst += remaining
                return
            }
            remaining -= left
            sentInFirst = 0
            let finished = segments.removeFirst()
            if finished.owned && finished.bytes.capacity <= OutputQueue.retainLimit {
                spare = finished.bytes
                spare.removeAll(keepingCapacity: true)
            }
        }
    }
}
