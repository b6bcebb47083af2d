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
            if let index = sets.firstIndex(of: set) {
                append(.set, index)
            } else {
                sets.append(set)
                append(.set, sets.count - 1)
            }
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
    func matches(_ scalars: String.UnicodeScalarView) -> Bool {
        let count = instructions.count
        var current = [Int32](repeating: 0, count: count)
        var upcoming = [Int32](repeating: 0, count: count)
        var currentCount = 0
        var upcomingCount = 0
        // marks[pc] == generation ⇔ pc already added at this input position.
        var marks = [UInt32](repeating: 0, count: count)
        var generation: UInt32 = 1
        var stack: [Int32] = []
        stack.reserveCapacity(16)

        instructions.withUnsafeBufferPointer { code in
            func addClosure(_ start: Int32, into list: inout [Int32], _ listCount: inout Int) {
                stack.append(start)
                while let pc = stack.popLast() {
                    let index = Int(pc)
                    if marks[index] == generation { continue }
                    marks[index] = generation
                    let instruction = code[index]
                    switch instruction.operation {
                    case .jump:
                        stack.append(instruction.first)
                    case .split:
                        stack.append(instruction.second)
                        stack.append(instruction.first)
                    case .scalar, .set, .match:
                        list[listCount] = pc
                        listCount += 1
                    }
                }
            }
            addClosure(0, into: &current, &currentCount)
            for scalar in scalars {
                if currentCount == 0 { return }
                generation &+= 1
                upcomingCount = 0
                for slot in 0..<currentCount {
                    let pc = Int(current[slot])
                    let instruction = code[pc]
                    let accepted: Bool
                    switch instruction.operation {
                    case .scalar: accepted = instruction.first == Int32(bitPattern: scalar.value)
                    case .set: accepted = sets[Int(instruction.first)].contains(scalar)
                    default: accepted = false
                    }
                    if accepted { addClosure(Int32(pc + 1), into: &upcoming, &upcomingCount) }
                }
                swap(&current, &upcoming)
                currentCount = upcomingCount
            }
        }
        for slot in 0..<currentCount where instructions[Int(current[slot])].operation == .match {
            return true
        }
        return false
    }
}
