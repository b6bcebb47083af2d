import ParleyCore

/// `GET /v1/capabilities`: the capability registry as data (DESIGN.md "Capabilities and version
/// gating"), so the studio's palette marks each component with the core version that
/// introduced it from the server's own table rather than a copy in JavaScript.
enum CapabilitiesDocument {
    /// `{"cores": [...], "components": [{"type", "introduced", "input", "container",
    /// "properties": [{"name", "introduced", "essential"}]}], "actions": [...], "rules": [...],
    /// "expressions": [{"name", "introduced"}]}` — `expressions` lists what expressions add
    /// (`visibleWhen`, `template`, `computed`, the 2.1 predicate forms), so the studio offers
    /// "Visible when" exactly when the server knows it.
    static let json: JSONValue = {
        let entries = CapabilityRegistry.entries
        let components: [JSONValue] = entries.compactMap { entry in
            guard case .component(let type) = entry.capability else { return nil }
            let properties: [JSONValue] = entries.compactMap { property in
                guard case .property(let name, let owner) = property.capability, owner == type else { return nil }
                return [
                    "name": .string(name), "introduced": .string(property.introduced.description),
                    "essential": .bool(property.essential),
                ]
            }
            return [
                "type": .string(type.name), "introduced": .string(entry.introduced.description),
                "input": .bool(type.isInput), "container": .bool(type.isContainer), "properties": .array(properties),
            ]
        }
        let actions: [JSONValue] = entries.compactMap { entry in
            guard case .action(let name) = entry.capability else { return nil }
            return ["type": .string(name), "introduced": .string(entry.introduced.description)]
        }
        let rules: [JSONValue] = entries.compactMap { entry in
            guard case .rule(let name) = entry.capability else { return nil }
            return ["rule": .string(name), "introduced": .string(entry.introduced.description)]
        }
        let expressions: [JSONValue] = entries.compactMap { entry in
            guard case .expression(let name) = entry.capability else { return nil }
            return ["name": .string(name), "introduced": .string(entry.introduced.description)]
        }
        return [
            "cores": .array(CoreVersion.supported.map { .string($0.description) }),
            "components": .array(components), "actions": .array(actions), "rules": .array(rules),
            "expressions": .array(expressions),
        ]
    }()
}
