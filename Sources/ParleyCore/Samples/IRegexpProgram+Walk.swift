/// Strings built from a pattern's own automaton, for `parley samples`.
///
/// A string is accepted exactly when a path through the NFA consumes it and
/// reaches `match`, so walking the instruction graph layer by layer (one layer
/// per scalar) finds an accepted string of any wanted length, or proves there
/// is none, in O(length × program) — the same bound as matching.
extension IRegexpProgram {
    /// Most work (layers × instructions) one walk may do; longer requests give up.
    static let maximumWalkWork = 4_000_000

    /// The consuming instructions (and `match`) reachable from `start` without consuming.
    func closure(from start: Int) -> [Int] {
        var seen = Set<Int>()
        var result: [Int] = []
        var stack = [start]
        while let pc = stack.popLast() {
            guard pc < instructions.count, seen.insert(pc).inserted else { continue }
            let instruction = instructions[pc]
            switch instruction.operation {
            case .jump: stack.append(Int(instruction.first))
            case .split: stack.append(contentsOf: [Int(instruction.second), Int(instruction.first)])
            case .scalar, .set, .match: result.append(pc)
            }
        }
        return result.sorted()
    }

    /// The consuming instructions of an accepted string of exactly `length` scalars, or `nil` when none exists.
    func acceptingPath(length: Int) -> [Int]? {
        guard length >= 0, (length + 1) * instructions.count <= Self.maximumWalkWork else { return nil }
        let matchPC = instructions.count - 1
        var successors: [Int: [Int]] = [:]
        func following(_ pc: Int) -> [Int] {
            if let known = successors[pc] { return known }
            let next = closure(from: pc + 1)
            successors[pc] = next
            return next
        }
        // parents[k][pc] = the consuming instruction of layer k - 1 that led to pc.
        var layer = closure(from: 0)
        var parents: [[Int: Int]] = [Dictionary(uniqueKeysWithValues: layer.map { ($0, -1) })]
        for _ in 0..<length {
            var next: [Int: Int] = [:]
            var order: [Int] = []
            for pc in layer where instructions[pc].operation != .match {
                for successor in following(pc) where next[successor] == nil {
                    next[successor] = pc
                    order.append(successor)
                }
            }
            if order.isEmpty { return nil }
            parents.append(next)
            layer = order
        }
        guard parents[length][matchPC] != nil else { return nil }
        var path: [Int] = []
        var pc = matchPC
        for depth in stride(from: length, to: 0, by: -1) {
            let parent = parents[depth][pc]!
            path.append(parent)
            pc = parent
        }
        return path.reversed()
    }

    /// The length of the shortest accepted string, or `nil` when the pattern accepts nothing.
    func shortestAcceptedLength() -> Int? {
        let matchPC = instructions.count - 1
        var layer = Set(closure(from: 0))
        var seen = layer
        var length = 0
        while !layer.isEmpty {
            if layer.contains(matchPC) { return length }
            var next = Set<Int>()
            for pc in layer where instructions[pc].operation != .match {
                for successor in closure(from: pc + 1) where seen.insert(successor).inserted { next.insert(successor) }
            }
            layer = next
            length += 1
        }
        return nil
    }

    /// Whether the consuming instruction at `pc` accepts `scalar`.
    func accepts(_ pc: Int, _ scalar: Unicode.Scalar) -> Bool {
        let instruction = instructions[pc]
        switch instruction.operation {
        case .scalar: return UInt32(bitPattern: instruction.first) == scalar.value
        case .set: return sets[Int(instruction.first)].contains(scalar)
        default: return false
        }
    }

    /// A scalar the instruction at `pc` accepts, preferring visible ASCII (chosen by `random`), else any member.
    func representative(_ pc: Int, using random: inout SampleRandom) -> Unicode.Scalar? {
        let instruction = instructions[pc]
        if instruction.operation == .scalar { return Unicode.Scalar(UInt32(bitPattern: instruction.first)) }
        let preferred = SampleAlphabet.visible.filter { accepts(pc, $0) }
        if !preferred.isEmpty { return preferred[random.index(below: preferred.count)] }
        let others = SampleAlphabet.wider.filter { accepts(pc, $0) }
        if !others.isEmpty { return others[random.index(below: others.count)] }
        // A class of rare scalars only: scan the planes in use, bounded.
        for value in UInt32(0x80)..<0x3_0000 {
            if let scalar = Unicode.Scalar(value), accepts(pc, scalar) { return scalar }
        }
        return nil
    }

    /// A scalar the instruction at `pc` refuses, or `nil` when it accepts every candidate.
    func outsider(_ pc: Int) -> Unicode.Scalar? {
        (SampleAlphabet.visible + SampleAlphabet.punctuation + SampleAlphabet.wider).first { !accepts(pc, $0) }
    }
}
