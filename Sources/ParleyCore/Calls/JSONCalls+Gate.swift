extension JSONCalls {
    /// `gate(document, coreVersion, options?)`: the screen served to a core of that version and
    /// its report (docs/gating.md).
    ///
    /// For a flow document, the step `options.step` (default: the flow's `start`) gated as
    /// `GET /v1/screens` serves it: `{"deferred", "flow", "report", "screen", "served", "step"}`
    /// (the server adds the stored `version`). For a screen document,
    /// `{"deferred", "needsUpgrade", "report", "screen"}`. `coreVersion` absent or empty means the
    /// oldest supported core, as a missing `Parley-Core` header does; `options.capabilities`
    /// (`{"add": [...], "remove": [...]}`, items like `component:card`) describes a custom core build.
    public static func gate(document: [UInt8], core: [UInt8]?, options: [UInt8]?) -> [UInt8] {
        do throws(CallProblem) {
            let settings = try Self.options(options, "options")
            let capabilities = try Self.capabilities(core: core, custom: settings["capabilities"])
            let value = try parse(document, "document")
            let gate = Gate(capabilities: capabilities)
            if value["schema"]?.stringValue?.hasPrefix("parley.flow/") == true {
                let flow: Flow
                do {
                    flow = try Flow(json: value, at: .root)
                } catch {
                    throw CallProblem("document: \(error.description)")
                }
                let stepId: String
                switch settings["step"] {
                case nil, .null: stepId = flow.start
                case .string(let name): stepId = name
                default: throw CallProblem("options.step must be a string")
                }
                guard let gated = gate.gate(flow, step: stepId), case .object(var body) = gated.json else {
                    throw CallProblem("the flow has no step \"\(stepId)\"")
                }
                body["flow"] = .string(flow.id)
                return CanonicalJSON.encode(.object(body))
            }
            let screen: Screen
            do {
                screen = try Screen(json: value, at: .root)
            } catch {
                throw CallProblem("document: \(error.description)")
            }
            return gate.gate(screen).canonicalBytes
        } catch {
            return failure(error.description)
        }
    }

    /// The capability set of `core` (text; absent or empty: ``CoreVersion/floor``) with custom additions and removals.
    static func capabilities(core: [UInt8]?, custom: JSONValue?) throws(CallProblem) -> CapabilitySet {
        var version = CoreVersion.floor
        if let core, !core.isEmpty {
            do {
                version = try CoreVersion(parsing: String(decoding: core, as: UTF8.self))
            } catch {
                throw CallProblem("coreVersion: \(error.description)")
            }
        }
        func items(_ key: String) throws(CallProblem) -> [Capability] {
            guard let list = custom?[key] else { return [] }
            guard case .array(let values) = list else { throw CallProblem("capabilities.\(key) must be an array") }
            var parsed: [Capability] = []
            for value in values {
                guard let text = value.stringValue, let capability = Capability(parsing: text) else {
                    throw CallProblem(
                        "capabilities.\(key) holds an item that is not a capability such as component:card")
                }
                parsed.append(capability)
            }
            return parsed
        }
        if custom == nil || custom?.isNull == true { return CapabilitySet(core: version) }
        return CapabilitySet.custom(core: version, adding: try items("add"), removing: try items("remove"))
    }
}
