extension LintWalk {
    /// A screen (DESIGN.md "Screen"); returns the fields its nodes declare.
    /// A top-level document must carry `schema`; a nested screen may omit it,
    /// but one it carries must be understood (as the decoder requires).
    mutating func lintScreen(_ value: JSONValue, at pointer: JSONPointer, isDocument: Bool) -> [FieldDeclaration] {
        guard let screen = object(value, at: pointer, what: "A screen") else { return [] }
        if isDocument || screen["schema"] != nil { checkSchema(screen, expected: "screen", at: pointer) }
        _ = identifier(screen, "id", at: pointer, what: "screen")
        _ = optionalString(screen, "title", at: pointer)
        guard let root = screen["root"] else {
            report(.missingMember, pointer.appending("root"), "\"root\" is required; it is the screen's top node.")
            return []
        }
        nodeIds = [:]
        nodeCount = 0
        return lintNode(root, at: pointer.appending("root"), depth: 1)
    }

    /// A screen document on its own: references must name its own fields.
    mutating func lintStandaloneScreen(_ value: JSONValue, at pointer: JSONPointer) {
        let outerReferences = fieldReferences
        fieldReferences = []
        var fields: [ScalarKey: JSONPointer] = [:]
        record(lintScreen(value, at: pointer, isDocument: true), into: &fields)
        checkReferences(declared: fields)
        fieldReferences = outerReferences
    }

    /// A bundle document (DESIGN.md "Bundle"): each flow, and flow ids unique.
    mutating func lintBundle(_ value: JSONValue, at pointer: JSONPointer) {
        guard let bundle = object(value, at: pointer, what: "A bundle") else { return }
        checkSchema(bundle, expected: "bundle", at: pointer)
        _ = identifier(bundle, "channel", at: pointer, what: "bundle")
        if let source = bundle["source"], !source.isNull, source.objectValue == nil {
            report(
                .wrongType, pointer.appending("source"),
                "\"source\" must be an object, found \(source.kindDescription).")
        }
        let flowsPointer = pointer.appending("flows")
        let flows = array(bundle, "flows", at: pointer, required: true) ?? []
        within(
            flows.count, limits.maximumFlowsPerBundle, name: "maximumFlowsPerBundle", at: flowsPointer, what: "Flows")
        var flowIds: [ScalarKey: JSONPointer] = [:]
        for (index, flow) in flows.prefix(limits.maximumFlowsPerBundle).enumerated() {
            let flowPointer = flowsPointer.appending(index)
            lintFlow(flow, at: flowPointer)
            guard let id = flow["id"]?.stringValue else { continue }
            if let first = flowIds[ScalarKey(id)] {
                report(
                    .duplicateFlowId, flowPointer.appending("id"),
                    "Flow id \(Self.quoted(id)) is already used by \(first).")
            } else {
                flowIds[ScalarKey(id)] = flowPointer
            }
        }
    }

    /// Every string and member name in the document within
    /// ``DocumentLimits/maximumStringLength``. Iterative: no recursion on depth.
    mutating func checkStringLengths(in document: JSONValue) {
        var pending: [(JSONValue, JSONPointer)] = [(document, .root)]
        let limit = limits.maximumStringLength
        while let (value, pointer) = pending.popLast() {
            switch value {
            case .string(let text) where text.utf8.count > limit && text.unicodeScalars.count > limit:
                report(
                    .limitExceeded, pointer,
                    "This text is \(text.unicodeScalars.count) characters long, over the limit of \(limit) (maximumStringLength)."
                )
            case .array(let elements):
                for (index, element) in elements.enumerated().reversed() {
                    pending.append((element, pointer.appending(index)))
                }
            case .object(let object):
                for member in object.members.reversed() {
                    let memberPointer = pointer.appending(member.key)
                    if member.key.utf8.count > limit && member.key.unicodeScalars.count > limit {
                        report(
                            .limitExceeded, memberPointer,
                            "This member name is longer than \(limit) characters (maximumStringLength).")
                    }
                    pending.append((member.value, memberPointer))
                }
            default:
                break
            }
        }
    }
}
