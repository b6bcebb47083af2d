import ParleyCore

/// What a flow's builder body produced: its steps and its computed values, each in the order
/// written. Opaque: only ``StepBuilder`` makes one.
public struct FlowContent: Sendable {
    var steps: [Step] = []
    var computed: [ComputedValue] = []

    init(steps: [Step] = [], computed: [ComputedValue] = []) {
        self.steps = steps
        self.computed = computed
    }

    init(joining parts: [FlowContent]) {
        steps = parts.flatMap(\.steps)
        computed = parts.flatMap(\.computed)
    }

    /// The computed values in the scalar order of their names: the order of the wire's
    /// `computed` object, so a built flow equals the same flow decoded. A name declared twice is
    /// a programming error in the flow definition and stops its build.
    var sortedComputed: [ComputedValue] {
        let sorted = computed.sorted {
            $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) { $0.value < $1.value }
        }
        for (earlier, later) in zip(sorted, sorted.dropFirst()) {
            precondition(
                !earlier.name.isScalarEqual(to: later.name), "computed value \"\(later.name)\" is declared twice")
        }
        return sorted
    }
}
