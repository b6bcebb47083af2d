/// A flow's steps as a graph of `goto`s, with which steps lie on every path from `start`.
///
/// Conditions are ignored (any `when` may hold), so "every path" is every chain of `goto`s. A step
/// `d` *dominates* `s` when every path from `start` to `s` passes through `d` (a step dominates
/// itself). Computed with the classic iterative data-flow equations over bit sets: a flow has at
/// most ``DocumentLimits/maximumStepsPerFlow`` steps, so this is small and always terminates.
struct StepGraph {
    /// Whether `start` reaches each step.
    private var reachable: [Bool]
    /// `dominators[s]`: bit `d` is set when `d` dominates `s` (only meaningful for reachable steps).
    private var dominators: [[UInt64]]

    /// The graph of `stepCount` steps with the given `(from, to)` edges (indices out of range are ignored).
    init(stepCount: Int, start: Int, edges: [(from: Int, to: Int)]) {
        let count = max(stepCount, 0)
        let valid = edges.filter { $0.from >= 0 && $0.from < count && $0.to >= 0 && $0.to < count }
        var successors = [[Int]](repeating: [], count: count)
        var predecessors = [[Int]](repeating: [], count: count)
        for edge in valid {
            successors[edge.from].append(edge.to)
            predecessors[edge.to].append(edge.from)
        }
        reachable = [Bool](repeating: false, count: count)
        var order: [Int] = []
        if start >= 0 && start < count {
            reachable[start] = true
            var pending = [start]
            while let current = pending.popLast() {
                order.append(current)
                for next in successors[current] where !reachable[next] {
                    reachable[next] = true
                    pending.append(next)
                }
            }
        }
        let words = (count + 63) / 64
        let all = [UInt64](repeating: ~0, count: words)
        dominators = [[UInt64]](repeating: all, count: count)
        guard start >= 0 && start < count else { return }
        dominators[start] = Self.only(start, words: words)
        var changed = true
        while changed {
            changed = false
            for step in order where step != start {
                var meet = all
                for predecessor in predecessors[step] where reachable[predecessor] {
                    for word in 0..<words { meet[word] &= dominators[predecessor][word] }
                }
                meet[step / 64] |= 1 << UInt64(step % 64)
                if meet != dominators[step] {
                    dominators[step] = meet
                    changed = true
                }
            }
        }
    }

    /// Whether some chain of `goto`s from `start` reaches `step`.
    func isReachable(_ step: Int) -> Bool {
        step >= 0 && step < reachable.count && reachable[step]
    }

    /// Whether every path from `start` to `step` passes through `candidate` (false when `step` is unreachable).
    func isOnEveryPath(_ candidate: Int, to step: Int) -> Bool {
        guard isReachable(step), candidate >= 0, candidate < reachable.count else { return false }
        return dominators[step][candidate / 64] & (1 << UInt64(candidate % 64)) != 0
    }

    private static func only(_ step: Int, words: Int) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: words)
        bits[step / 64] = 1 << UInt64(step % 64)
        return bits
    }
}
