extension LintWalk {
    /// A screen (docs/wire-format.md "Screen"); returns the fields its nodes declare.
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
        checkReferences(declared: fields, scope: "screen")
        fieldReferences = outerReferences
    }

    /// A bundle document (docs/wire-format.md "Bundle"): each flow, and flow ids unique.
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

    /// Every string and member name within ``DocumentLimits/maximumStringLength``
    /// and every array or object within ``DocumentLimits/maximumValueDepth``.
    /// Iterative, so no recursion on the document's depth; pointers are only
    /// built for values that are reported.
    mutating func checkValueBounds(in document: JSONValue) {
        var trail: [(parent: Int, token: String)] = [(-1, "")]
        var pending: [(value: JSONValue, trail: Int, depth: Int)] = [(document, 0, 1)]
        let limit = limits.maximumStringLength
        var depthReported = false
        func pointer(_ index: Int) -> JSONPointer {
            var tokens: [String] = []
            var current = index
            while current > 0 {
                tokens.append(trail[current].token)
                current = trail[current].parent
            }
            return JSONPointer(tokens: tokens.reversed())
        }
        while let (value, position, depth) = pending.popLast() {
            switch value {
            case .string(let text) where text.utf8.count > limit && text.unicodeScalars.count > limit:
                report(
                    .limitExceeded, pointer(position),
                    "This text is \(text.unicodeScalars.count) characters long, over the limit of \(limit) (maximumStringLength)."
                )
            case .array, .object:
                guard depth <= limits.maximumValueDepth else {
                    if !depthReported {
                        report(
                            .limitExceeded, pointer(position),
                            "Values are nested more than \(limits.maximumValueDepth) levels deep (maximumValueDepth).")
                    }
                    depthReported = true
                    continue
                }
                if case .array(let elements) = value {
                    for (index, element) in elements.enumerated().reversed() {
                        trail.append((position, String(index)))
                        pending.append((element, trail.count - 1, depth + 1))
                    }
                }
                guard case .object(let object) = value else { continue }
                for member in object.members.reversed() {
                    trail.append((position, member.key))
                    if member.key.utf8.count > limit && member.key.unicodeScalars.count > limit {
                        report(
                            .limitExceeded, pointer(trail.count - 1),
                            "This member name is longer than \(limit) characters (maximumStringLength).")
                    }
                    pending.append((member.value, trail.count - 1, depth + 1))
                }
            default:
                break
            }
        }
    }
}
