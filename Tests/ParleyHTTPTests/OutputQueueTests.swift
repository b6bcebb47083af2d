import Testing

@testable import ParleyHTTP

@Suite(.timeLimit(.minutes(10))) struct OutputQueueTests {
    @Test func partialWritesAcrossHeadAndLargeBodiesKeepOrder() {
        var queue = OutputQueue()
        let big = [UInt8](repeating: 66, count: OutputQueue.coalesceLimit + 1)
        queue.appendOwned { $0.append(contentsOf: Array("head1".utf8)) }
        queue.appendBody(big)
        queue.appendOwned { $0.append(contentsOf: Array("head2".utf8)) }
        queue.appendBody(Array("small".utf8))
        var written: [UInt8] = []
        var calls = 0
        var sawTwoPieces = false
        let status = queue.drain { first, second in
            calls += 1
            if second != nil { sawTwoPieces = true }
            // A socket that takes at most 1,000 bytes per call, spanning both pieces.
            var budget = 1000
            let fromFirst = min(budget, first.count)
            written.append(contentsOf: first[0..<fromFirst])
            budget -= fromFirst
            if let second, budget > 0 {
                let fromSecond = min(budget, second.count)
                written.append(contentsOf: second[0..<fromSecond])
                budget -= fromSecond
            }
            return .bytes(1000 - budget)
        }
        #expect(status == .done)
        #expect(queue.isEmpty)
        #expect(sawTwoPieces)
        #expect(calls > 1)
        #expect(written == Array("head1".utf8) + big + Array("head2small".utf8))
    }

    /// A body above `referenceLimit` right behind its own head is written where it lies, in the
    /// head's `writev`; a pipelined response behind it is coalesced; TLS queues copy.
    @Test func aBodyAloneBehindItsHeadGoesByReference() {
        let body = [UInt8](repeating: 7, count: OutputQueue.referenceLimit + 1)
        let bodyAddress = body.withUnsafeBytes { $0.baseAddress }
        var queue = OutputQueue()
        _ = queue.appendHead(
            HTTPResponse(status: .ok, body: body), date: [], keepAlive: true, announceKeepAlive: false,
            headOnly: false)
        queue.appendBody(body)
        _ = queue.appendHead(
            HTTPResponse(status: .ok, body: body), date: [], keepAlive: true, announceKeepAlive: false,
            headOnly: false)
        queue.appendBody(body)
        var pieces: [(first: Int, second: Int?, secondAddress: UnsafeRawPointer?)] = []
        var written: [UInt8] = []
        let status = queue.drain { first, second in
            pieces.append((first.count, second?.count, second?.baseAddress))
            written.append(contentsOf: first)
            if let second { written.append(contentsOf: second) }
            return .bytes(first.count + (second?.count ?? 0))
        }
        #expect(status == .done)
        #expect(pieces.count == 2, "\(pieces)")
        #expect(pieces.first?.second == body.count && pieces.first?.secondAddress == bodyAddress, "by reference")
        #expect(pieces.last?.second == nil, "the pipelined response is head and body in one buffer")
        #expect(written.count == 2 * body.count + 2 * (pieces[0].first))

        var tls = OutputQueue()
        tls.referencesSmallBodies = false
        tls.appendOwned { $0.append(contentsOf: Array("head".utf8)) }
        tls.appendBody(body)
        var calls = 0
        _ = tls.drain { first, second in
            calls += 1
            #expect(second == nil && first.count == 4 + body.count)
            return .bytes(first.count)
        }
        #expect(calls == 1)
    }

    @Test func blockedSocketKeepsTheRest() {
        var queue = OutputQueue()
        queue.appendOwned { $0.append(contentsOf: [1, 2, 3, 4]) }
        var first = true
        let status = queue.drain { bytes, _ in
            defer { first = false }
            return first ? .bytes(2) : .wantWrite
        }
        #expect(status == .wantWrite)
        var rest: [UInt8] = []
        _ = queue.drain { bytes, _ in
            rest.append(contentsOf: bytes)
            return .bytes(bytes.count)
        }
        #expect(rest == [3, 4])
    }
}
