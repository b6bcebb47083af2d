/// The capability registry: for every component type, property, per-child
/// property, action type, rule kind and what expressions add, the core version that introduced it
/// (docs/gating.md; the table is in
/// `Tests/Conformance/gating/README.md`).
///
/// A core's capability set is everything introduced at or before its version.
/// The registry is data: adding a row is how a new core version ships.
public enum CapabilityRegistry {
    /// One row of the registry.
    public struct Entry: Sendable, Hashable {
        /// What the row describes.
        public let capability: Capability
        /// The first core version that understands it.
        public let introduced: CoreVersion
        /// Only for properties (see `essentialProperties`): a node using an *essential* property that the
        /// core lacks cannot be served as-is (its meaning would change), so it is
        /// treated like an unsupported node — its `fallback` is used, else it is
        /// dropped or escalated. A non-essential unsupported property is stripped.
        public let essential: Bool
    }

    /// Properties without which a node means something else or nothing: an
    /// input without `fieldId` collects nothing, a choice without `options`
    /// offers nothing, a button without `action` does nothing, markdown shown
    /// raw shows markup. Only a custom core build can lack the first three.
    static let essentialProperties: [String: Set<String>] = [
        "textField": ["fieldId"], "picker": ["fieldId", "options"], "quickReplies": ["fieldId", "options"],
        "datePicker": ["fieldId"], "toggle": ["fieldId"], "button": ["action"],
    ]

    /// What expressions add, all in core 2.1 (docs/expressions.md "Gating and lint"): the node
    /// member `visibleWhen`, `template` texts, reading `computed` values, then the new predicate
    /// forms. ``CapabilityLookup/expressionBits`` relies on this order.
    static let expressionNames =
        ["visibleWhen", "template", "computed"] + NumericComparison.allCases.map { $0.rawValue } + ["matches", "empty"]

    /// Every row, in table order (component, then its properties).
    public static let entries: [Entry] = {
        var rows: [Entry] = []
        func add(_ capability: Capability, _ version: CoreVersion, essential: Bool = false) {
            rows.append(Entry(capability: capability, introduced: version, essential: essential))
        }
        func component(
            _ type: ComponentType, _ version: CoreVersion, _ properties: [String], later: [(String, CoreVersion)] = [],
            children: [String] = []
        ) {
            add(.component(type), version)
            for name in properties {
                add(
                    .property(name, of: type), version,
                    essential: essentialProperties[type.name]?.contains(name) == true)
            }
            for (name, introduced) in later { add(.property(name, of: type), introduced) }
            for name in children { add(.childProperty(name, under: type), version) }
        }
        let v10 = CoreVersion(1, 0, 0)
        let v11 = CoreVersion(1, 1, 0)
        let v12 = CoreVersion(1, 2, 0)
        let v20 = CoreVersion(2, 0, 0)
        let v21 = CoreVersion(2, 1, 0)
        let input = ["fieldId", "label", "validation", "sensitive"]
        component(.vstack, v10, ["spacing", "alignment"], children: ["size"])
        component(.hstack, v10, ["spacing", "alignment"], children: ["size"])
        component(.text, v10, ["text", "style"])
        add(.property("markdown", of: .text), v20, essential: true)
        component(.image, v10, ["url", "aspectRatio", "alt"])
        component(.button, v10, ["title", "action"], later: [("style", v12)])
        component(.textField, v10, input + ["placeholder"], later: [("keyboard", v11)])
        component(.picker, v10, input + ["options"])
        component(.spacer, v10, [])
        component(.divider, v10, [])
        component(.quickReplies, v11, ["fieldId", "options", "validation", "sensitive"])
        component(.card, v11, ["title", "subtitle", "imageUrl", "action"], children: ["size"])
        component(.datePicker, v12, input)
        component(.toggle, v12, input)
        component(.carousel, v20, [])
        component(.grid, v20, ["columns"])
        for name in ["submit", "openUrl"] { add(.action(name), v10) }
        add(.action("network"), v11)
        add(.action("subscribe"), v12)
        for name in ["required", "minLength", "maxLength", "pattern", "oneOf"] { add(.rule(name), v10) }
        for name in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "integer", "multipleOf", "email"] {
            add(.rule(name), v11)
        }
        for name in ["date", "equalsField", "requiredIf"] { add(.rule(name), v12) }
        for name in expressionNames { add(.expression(name), v21) }
        precondition(rows.count <= CapabilityBits.capacity, "the registry outgrew CapabilityBits")
        precondition(
            rows.allSatisfy { $0.capability.description.utf8.allSatisfy { $0 < 0x80 } },
            "registry names must be ASCII (CapabilityLookup.slot relies on it)")
        return rows
    }()

    /// The row for a capability, or `nil` when no core understands it.
    public static func entry(for capability: Capability) -> Entry? {
        index(of: capability).map { entries[$0] }
    }

    /// The version that introduced a capability, or `nil` when no core understands it.
    public static func introduced(_ capability: Capability) -> CoreVersion? {
        entry(for: capability)?.introduced
    }

    /// The distinct introduction versions, oldest first (equals ``CoreVersion/supported``).
    public static var versions: [CoreVersion] {
        Array(Set(entries.map { $0.introduced })).sorted()
    }

    /// The registry as a Markdown table (core version → what it introduced), for the README.
    public static var markdownTable: String {
        var lines = ["| core | introduced |", "|---|---|"]
        for version in versions {
            let items = entries.filter { $0.introduced == version }.map {
                "`\($0.capability)`" + ($0.essential ? " (essential)" : "")
            }
            lines.append("| \(version) | \(items.joined(separator: ", ")) |")
        }
        return lines.joined(separator: "\n")
    }

    static let indexByCapability: [Capability: Int] = {
        var table: [Capability: Int] = [:]
        for (position, entry) in entries.enumerated() { table[entry.capability] = position }
        return table
    }()

    /// The row number of a capability (its bit in ``CapabilityBits``).
    static func index(of capability: Capability) -> Int? {
        indexByCapability[capability]
    }
}
