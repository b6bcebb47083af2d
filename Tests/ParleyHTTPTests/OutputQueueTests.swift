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
