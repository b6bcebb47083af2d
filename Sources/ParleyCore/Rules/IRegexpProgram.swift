/// A compiled I-Regexp: a Thompson NFA as a flat instruction list, run by a
/// Pike VM over Unicode scalars.
///
/// Simulation keeps a set of live states (each state at most once per input
/// position), so matching costs O(input × program) whatever the pattern:
/// `(a|a)*b` or `(a+)+b` cannot make it backtrack, because it never does.
struct IRegexpProgram: Sendable {
    enum Operation: UInt8, Sendable {
        case scalar, set, split, jump, match
    }

    struct Instruction: Sendable {
        var operation: Operation
        /// Scalar value, set index, or first jump target.
        var first: Int32
        /// Second split target.
        var second: Int32
        /// For `.set`: membership of U+0000…U+003F, so ASCII input never leaves the instruction.
        var asciiLow: UInt64 = 0
        /// For `.set`: membership of U+0040…U+007F.
        var asciiHigh: UInt64 = 0
    }

    private(set) var instructions: [Instruction] = []
    private(set) var sets: [IRegexpScalarSet] = []

    /// Compiles a parsed pattern.
    init(_ node: IRegexpNode) {
        emit(node)
        append(.match)
    }

    private mutating func append(_ operation: Operation, _ first: Int = 0, _ second: Int = 0) {
        instructions.append(Instruction(operation: operation, first: Int32(first), second: Int32(second)))
    }

    private var next: Int { instructions.count }

    private mutating func emit(_ node: IRegexpNode) {
        switch node {
        case .empty:
            break
        case .scalar(let scalar):
            append(.scalar, Int(scalar.value))
        case .set(let set):
            let index: Int
            if let known = sets.firstIndex(of: set) {
                index = known
            } else {
                sets.append(set)
                index = sets.count - 1
            }
            append(.set, index)
            (instructions[next - 1].asciiLow, instructions[next - 1].asciiHigh) = set.asciiMembership
        case .concatenation(let parts):
            for part in parts { emit(part) }
        case .alternation(let branches):
            // split L1, next; L1: branch; jump end; next: split …
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                if index < branches.count - 1 {
                    let split = next
                    append(.split, split + 1, 0)
                    emit(branch)
                    jumps.append(next)
                    append(.jump)
                    instructions[split].second = Int32(next)
                } else {
                    emit(branch)
                }
            }
            for jump in jumps { instructions[jump].first = Int32(next) }
        case .repetition(let inner, let minimum, let maximum, _):
            for _ in 0..<minimum { emit(inner) }
            if let maximum {
                // x{0,k} as k nested optionals: each skip jumps to the very end.
                var splits: [Int] = []
                for _ in 0..<(maximum - minimum) {
                    splits.append(next)
                    append(.split, next + 1, 0)
                    emit(inner)
                }
                for split in splits { instructions[split].second = Int32(next) }
            } else {
                // loop: split body, end; body; jump loop
                let loop = next
                append(.split, loop + 1, 0)
                emit(inner)
                append(.jump, loop)
                instructions[loop].second = Int32(next)
            }
        }
    }
}

extension IRegexpProgram {
    /// Whether the program matches the whole of `scalars`.
    ///
    /// One allocation per call holds both state lists, the marks and the
    /// closure stack; the loop works on raw buffers to stay free of ARC traffic.
    func matches(_ scalars: String.UnicodeScalarView) -> Bool {
        let count = instructions.count
        // Lists: 2 × count; marks: count; the closure stack: each marked instruction pushes at
        // most two successors, so it never exceeds 2 × count + 1. Small programs stay on the stack.
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 5 * count + 2) { buffer in
            let storage = buffer.baseAddress!
            let marks = UnsafeMutableRawPointer(storage + 2 * count).bindMemory(to: UInt32.self, capacity: count)
            marks.initialize(repeating: 0, count: count)
            return run(scalars, lists: storage, marks: marks, stack: storage + 3 * count)
        }
    }

    private func run(
        _ scalars: String.UnicodeScalarView, lists: UnsafeMutablePointer<Int32>, marks: UnsafeMutablePointer<UInt32>,
        stack: UnsafeMutablePointer<Int32>
    ) -> Bool {
        let count = instructions.count
        var current = lists
        var upcoming = lists + count
        var generation: UInt32 = 1

        return instructions.withUnsafeBufferPointer { code in
            sets.withUnsafeBufferPointer { sets in
                /// Adds the ε-closure of `start` to `list`, returning the new length.
                @inline(__always)
                func addClosure(_ start: Int32, _ list: UnsafeMutablePointer<Int32>, _ length: Int) -> Int {
                    var length = length
                    var top = 0
                    stack[0] = start
                    top = 1
                    while top > 0 {
                        top -= 1
                        let pc = Int(stack[top])
                        if marks[pc] == generation { continue }
                        marks[pc] = generation
                        let instruction = code[pc]
                        switch instruction.operation {
                        case .jump:
                            stack[top] = instruction.first
                            top += 1
                        case .split:
                            stack[top] = instruction.second
                            stack[top + 1] = instruction.first
                            top += 2
                        case .scalar, .set, .match:
                            list[length] = Int32(pc)
                            length += 1
                        }
                    }
                    return length
                }
                var currentCount = addClosure(0, current, 0)
                for scalar in scalars {
                    if currentCount == 0 { return false }
                    generation &+= 1
                    var upcomingCount = 0
                    let value = scalar.value
                    for slot in 0..<currentCount {
                        let pc = Int(current[slot])
                        let instruction = code[pc]
                        let accepted: Bool
                        switch instruction.operation {
                        case .scalar:
                            accepted = UInt32(bitPattern: instruction.first) == value
                        case .set:
                            if value < 64 {
                                accepted = instruction.asciiLow & (1 << UInt64(value)) != 0
                            } else if value < 128 {
                                accepted = instruction.asciiHigh & (1 << UInt64(value - 64)) != 0
                            } else {
                                accepted = sets[Int(instruction.first)].contains(scalar)
                            }
                        default:
                            accepted = false
                        }
                        if accepted { upcomingCount = addClosure(Int32(pc + 1), upcoming, upcomingCount) }
                    }
                    swap(&current, &upcoming)
                    currentCount = upcomingCount
                }
                for slot in 0..<currentCount where code[Int(current[slot])].operation == .match {
                    return true
                }
                return false
            }
        }
    }
}
