import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct CapabilitySetTests {
    /// The issue's vocabulary table: what each core version introduced.
    static let table: [(core: String, components: [ComponentType], actions: [String], rules: [String])] = [
        (
            "1.0.0", [.vstack, .hstack, .text, .image, .button, .textField, .picker, .spacer, .divider],
            ["submit", "openUrl"], ["required", "minLength", "maxLength", "pattern", "oneOf"]
        ),
        (
            "1.1.0", [.quickReplies, .card], ["network"],
            ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "integer", "multipleOf", "email"]
        ),
        ("1.2.0", [.datePicker, .toggle], ["subscribe"], ["date", "equalsField", "requiredIf"]),
        ("2.0.0", [.carousel, .grid], [], []),
    ]

    @Test func registryMatchesTheIssueTable() throws {
        for row in Self.table {
            let version = try CoreVersion(parsing: row.core)
            for type in row.components {
                #expect(CapabilityRegistry.introduced(.component(type)) == version, "\(type)")
            }
            for action in row.actions {
                #expect(CapabilityRegistry.introduced(.action(action)) == version, "\(action)")
            }
            for rule in row.rules { #expect(CapabilityRegistry.introduced(.rule(rule)) == version, "\(rule)") }
        }
        let listed = Self.table.flatMap(\.components)
        #expect(Set(listed.map(\.name)) == Set(ComponentType.known.map(\.name)))
        #expect(Set(Self.table.flatMap(\.actions)) == Set(Action.knownTypeNames))
        #expect(Set(Self.table.flatMap(\.rules)) == Set(Rule.knownKinds))
    }

    @Test func everyDesignPropertyIsListedFromItsComponentsVersion() throws {
        let vocabulary: [ComponentType: [String]] = [
            .vstack: ["spacing", "alignment"], .hstack: ["spacing", "alignment"], .text: ["text", "style"],
            .image: ["url", "aspectRatio", "alt"], .button: ["title", "action"],
            .textField: ["fieldId", "label", "placeholder", "validation"],
            .picker: ["fieldId", "label", "options", "validation"],
            .quickReplies: ["fieldId", "options", "validation"],
            .card: ["title", "subtitle", "imageUrl", "action"], .datePicker: ["fieldId", "label", "validation"],
            .toggle: ["fieldId", "label", "validation"],
        ]
        for (type, properties) in vocabulary {
            let version = try #require(CapabilityRegistry.introduced(.component(type)))
            for property in properties {
                #expect(CapabilityRegistry.introduced(.property(property, of: type)) == version, "\(type).\(property)")
            }
        }
        #expect(CapabilityRegistry.introduced(.childProperty("size", under: .vstack)) == CoreVersion(1, 0, 0))
        #expect(CapabilityRegistry.introduced(.childProperty("size", under: .hstack)) == CoreVersion(1, 0, 0))
    }

    @Test func somePropertiesArriveAfterTheirComponent() {
        #expect(CapabilityRegistry.introduced(.property("keyboard", of: .textField)) == CoreVersion(1, 1, 0))
        #expect(CapabilityRegistry.introduced(.property("style", of: .button)) == CoreVersion(1, 2, 0))
        let markdown = CapabilityRegistry.entry(for: .property("markdown", of: .text))
        #expect(markdown?.introduced == CoreVersion(2, 0, 0))
        #expect(markdown?.essential == true)
        let essential = CapabilityRegistry.entries.filter(\.essential).map(\.capability.description)
        #expect(
            Set(essential) == [
                "property:text.markdown", "property:button.action", "property:textField.fieldId",
                "property:picker.fieldId", "property:picker.options", "property:quickReplies.fieldId",
                "property:quickReplies.options", "property:datePicker.fieldId", "property:toggle.fieldId",
            ])
    }

    @Test func aCoreHasEverythingIntroducedAtOrBeforeItsVersion() throws {
        let set = CapabilitySet(core: try CoreVersion(parsing: "1.1.4"))
        #expect(set.supports(component: .card))
        #expect(!set.supports(component: .toggle))
        #expect(set.supports(property: "keyboard", of: .textField))
        #expect(!set.supports(property: "style", of: .button))
        #expect(set.supports(action: Action(.network(RequestSpec(method: "GET", path: "x")))))
        #expect(!set.supports(action: Action(.subscribe(channel: "c"))))
        #expect(set.supports(rule: Rule(.email)))
        #expect(!set.supports(rule: Rule(.date(min: nil, max: nil))))
        #expect(set.supports(childProperty: "size", under: .card))
        #expect(!set.supports(childProperty: "size", under: .grid))
    }

    @Test func unknownThingsAreSupportedByNoCore() {
        let all = CapabilitySet.all
        #expect(!all.supports(component: .unknown("map")))
        #expect(!all.supports(component: .unknown("text")))
        #expect(!all.supports(action: Action(.unknown(type: "share", raw: JSONObject()))))
        #expect(!all.supports(rule: Rule(.unknown(name: "luhn", raw: JSONObject()))))
        #expect(!all.supports(property: "testTag", of: .text))
        #expect(all.adding([.component(.unknown("map"))]) == all)
    }

    @Test func aPreReleaseLacksWhatItsReleaseIntroduced() throws {
        #expect(
            CapabilitySet(core: try CoreVersion(parsing: "1.2.0-rc.1")) == CapabilitySet(core: CoreVersion(1, 1, 0)))
        #expect(
            CapabilitySet(core: try CoreVersion(parsing: "1.2.1-rc.1")) == CapabilitySet(core: CoreVersion(1, 2, 0)))
        #expect(CapabilitySet(core: CoreVersion(0, 9, 0)) == CapabilitySet.none)
        #expect(CapabilitySet(core: CoreVersion(7, 0, 0)) == CapabilitySet.all)
    }

    @Test func customSetsAddAndRemove() {
        let custom = CapabilitySet.custom(
            core: CoreVersion(1, 0, 0), adding: [.component(.card), .rule("email")], removing: [.rule("pattern")])
        #expect(custom.supports(component: .card))
        #expect(custom.supports(rule: Rule(.email)))
        #expect(!custom.supports(rule: Rule(.pattern("a"))))
        #expect(custom.contains(.component(.text)))
        let both = CapabilitySet.custom(
            core: CoreVersion(1, 0, 0), adding: [.rule("email")], removing: [.rule("email")])
        #expect(!both.supports(rule: Rule(.email)), "removing wins")
    }

    @Test func fingerprintInputDescribesContentNotConstruction() throws {
        #expect(CapabilitySet(core: CoreVersion(1, 1, 0)).fingerprintInput == "parley.capabilities/1;base=1.1.0")
        #expect(CapabilitySet.none.fingerprintInput == "parley.capabilities/1;base=none")
        #expect(
            CapabilitySet(core: try CoreVersion(parsing: "1.1.7+b.3")).fingerprintInput
                == CapabilitySet(core: CoreVersion(1, 1, 0)).fingerprintInput)
        let oneTwoItems = CapabilityRegistry.entries.filter { $0.introduced == CoreVersion(1, 2, 0) }.map(\.capability)
        let built = CapabilitySet.custom(core: CoreVersion(1, 1, 0), adding: oneTwoItems)
        #expect(built.fingerprintInput == "parley.capabilities/1;base=1.2.0")
        let custom = CapabilitySet.custom(
            core: CoreVersion(1, 1, 0), adding: [.component(.grid)], removing: [.rule("email"), .action("network")])
        #expect(
            custom.fingerprintInput
                == "parley.capabilities/1;base=1.1.0;add=component:grid;remove=action:network,rule:email")
    }

    @Test func differentSetsHaveDifferentFingerprints() {
        var sets = CoreVersion.supported.map { CapabilitySet(core: $0) } + [CapabilitySet.none]
        for entry in CapabilityRegistry.entries {
            sets.append(CapabilitySet(core: CoreVersion(1, 1, 0)).removing([entry.capability]))
            sets.append(CapabilitySet(core: CoreVersion(1, 1, 0)).adding([entry.capability]))
        }
        var byFingerprint: [String: CapabilitySet] = [:]
        for set in sets {
            if let seen = byFingerprint[set.fingerprintInput] { #expect(seen == set, "\(set.fingerprintInput)") }
            byFingerprint[set.fingerprintInput] = set
        }
        #expect(Set(sets).count == byFingerprint.count)
    }

    @Test func capabilityDescriptionsParseBack() {
        for entry in CapabilityRegistry.entries {
            #expect(Capability(parsing: entry.capability.description) == entry.capability)
        }
        #expect(Capability(parsing: "component") == nil)
        #expect(Capability(parsing: "property:text") == nil)
        #expect(Capability(parsing: "widget:x") == nil)
        #expect(Capability(parsing: "component:map") == .component(.unknown("map")))
    }
}
