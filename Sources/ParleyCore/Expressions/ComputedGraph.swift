/// A flow's computed values as a dependency graph (docs/expressions.md: "a computed value may
/// use others; a cycle is a lint error"), built without recursion so any input is safe.
///
/// Strongly connected components come from an iterative Tarjan walk, which emits them
/// dependencies first: that is the evaluation order. A value in a component with a cycle (more
/// than one member, or one that reads itself) is empty even on unlinted input.
struct ComputedGraph: Sendable, Equatable {
    /// The values, in the flow's order.
    let values: [ComputedValue]
    /// Index of each name.
    let indexByName: [ScalarKey: Int]
    /// For each value, the computed values it reads (indices, duplicates removed).
    let dependencies: [[Int]]
    /// Position of each value in the evaluation order (dependencies first).
    let position: [Int]
    /// Whether each value is part of a cycle.
    let cyclic: [Bool]
    /// The cycles (components with a cycle), members in the flow's order, in evaluation order.
    let cycles: [[Int]]

    init(_ values: [ComputedValue]) {
        self.values = values
        var indexByName: [ScalarKey: Int] = [:]
        for (index, value) in values.enumerated() where indexByName[ScalarKey(value.name)] == nil {
            indexByName[ScalarKey(value.name)] = index
        }
        self.indexByName = indexByName
        var dependencies: [[Int]] = []
        var selfLoop = [Bool](repeating: false, count: values.count)
        for (index, value) in values.enumerated() {
            var seen = Set<Int>()
            var list: [Int] = []
            for reference in value.expression.references {
                guard let name = reference.computedName, let target = indexByName[ScalarKey(name)] else { continue }
                if target == index { selfLoop[index] = true }
                if seen.insert(target).inserted { list.append(target) }
            }
            dependencies.append(list)
        }
        self.dependencies = dependencies
        let components = Self.stronglyConnectedComponents(dependencies)
        var position = [Int](repeating: 0, count: values.count)
        var cyclic = [Bool](repeating: false, count: values.count)
        var cycles: [[Int]] = []
        var next = 0
        for component in components {
            let isCycle = component.count > 1 || selfLoop[component[0]]
            if isCycle { cycles.append(component.sorted()) }
            for member in component {
                position[member] = next
                next += 1
                cyclic[member] = isCycle
            }
        }
        self.position = position
        self.cyclic = cyclic
        self.cycles = cycles
    }

    /// Graphs are equal when their values are: everything else is derived from them.
    static func == (lhs: ComputedGraph, rhs: ComputedGraph) -> Bool { lhs.values == rhs.values }

    /// The index of a computed value by name.
    func index(of name: String) -> Int? { indexByName[ScalarKey(name)] }

    /// Tarjan's algorithm with an explicit stack; components come out dependencies first.
    private static func stronglyConnectedComponents(_ edges: [[Int]]) -> [[Int]] {
        let count = edges.count
        var order = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        var components: [[Int]] = []
        var counter = 0
        for root in 0..<count where order[root] == -1 {
            var work: [(node: Int, next: Int)] = []
            func open(_ node: Int) {
                order[node] = counter
                low[node] = counter
                counter += 1
                stack.append(node)
                onStack[node] = true
                work.append((node, 0))
            }
            open(root)
            while let (node, next) = work.last {
                if next < edges[node].count {
                    work[work.count - 1].next += 1
                    let target = edges[node][next]
                    if order[target] == -1 {
                        open(target)
                    } else if onStack[target] {
                        low[node] = Swift.min(low[node], order[target])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = Swift.min(low[parent], low[node]) }
                guard low[node] == order[node] else { continue }
                var component: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    component.append(member)
                    if member == node { break }
                }
                components.append(component)
            }
        }
        return components
    }
}
