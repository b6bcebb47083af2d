/// Where a report entry points, kept as the gate's path and turned into a
/// ``JSONPointer`` only when read.
struct GatingLocation: Sendable, Hashable {
    /// One step down the screen tree.
    enum Step: Sendable, Hashable {
        case root
        case child(Int)
        case fallback
    }

    /// The screen's position in its document (`/steps/2/screen`, or the root).
    let base: JSONPointer
    /// From the screen to the node.
    let steps: [Step]
    /// A property of the node (`properties/<name>`), if the entry is about one.
    let property: String?

    var pointer: JSONPointer {
        var tokens = base.tokens
        for step in steps {
            switch step {
            case .root: tokens.append("root")
            case .child(let position): tokens += ["children", String(position)]
            case .fallback: tokens.append("fallback")
            }
        }
        if let property { tokens += ["properties", property] }
        return JSONPointer(tokens: tokens)
    }
}
