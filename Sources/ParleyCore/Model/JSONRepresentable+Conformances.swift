/// Model values that decode from and encode to JSON (see ``JSONRepresentable``).
extension Node: JSONRepresentable {}
extension Action: JSONRepresentable {}
extension RequestSpec: JSONRepresentable {}
extension Rule: JSONRepresentable {}
extension Predicate: JSONRepresentable {}
extension Transition: JSONRepresentable {}
extension Step: JSONRepresentable {}
