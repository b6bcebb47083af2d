extension LintWalk {
    /// A node and its subtree (docs/wire-format.md "Screen"). Returns the fields the node
    /// and its children declare; fallbacks stand in for their node, so their
    /// fields are checked against it instead of being declared again.
    mutating func lintNode(_ value: JSONValue, at pointer: JSONPointer, depth: Int) -> [FieldDeclaration] {
        guard depth <= limits.maximumNodeDepth else {
            report(
                .limitExceeded, pointer,
                "Nodes are nested more than \(limits.maximumNodeDepth) levels deep (maximumNodeDepth).")
            return []
        }
        nodeCount += 1
        if nodeCount == limits.maximumNodesPerScreen + 1 {
            report(
                .limitExceeded, pointer,
                "The screen has more than \(limits.maximumNodesPerScreen) nodes (maximumNodesPerScreen).")
        }
        guard let node = object(value, at: pointer, what: "A node") else { return [] }
        let type = string(node, "type", at: pointer, why: "; every node names its component type").map(
            ComponentType.init(name:))
        if case .unknown(let name) = type {
            report(
                .unknownComponentType, pointer.appending("type"),
                "\(Self.quoted(name)) is not a component type Parley knows; use one of "
                    + ComponentType.known.map(\.name).joined(separator: ", ") + ".")
        }
        if let id = identifier(node, "id", at: pointer, what: "node") {
            if let first = nodeIds[ScalarKey(id)] {
                report(
                    .duplicateNodeId, pointer.appending("id"),
                    "Node id \(Self.quoted(id)) is already used at \(first); ids must be unique in a screen.")
            } else {
                nodeIds[ScalarKey(id)] = pointer
            }
        }
        var declared: [FieldDeclaration] = []
        let properties = lintPropertiesObject(node, at: pointer)
        let ownField = lintFieldId(properties, type: type, at: pointer.appending("properties"))
        if let ownField { declared.append(ownField) }
        if let type, type.isKnown {
            lintProperties(properties, type: type, hasField: ownField != nil, at: pointer.appending("properties"))
        }
        if let children = array(node, "children", at: pointer, required: false) {
            if let type, type.isKnown, !type.isContainer, !children.isEmpty {
                report(
                    .childrenNotAllowed, pointer.appending("children"),
                    "A \(type.name) cannot have children; only vstack, hstack, card, carousel and grid can.")
            }
            for (index, child) in children.enumerated() {
                declared += lintNode(child, at: pointer.appending("children").appending(index), depth: depth + 1)
            }
        }
        if let fallback = node["fallback"], !fallback.isNull {
            lintFallback(fallback, of: declared, ownField: ownField, at: pointer.appending("fallback"), depth: depth)
        }
        return declared
    }

    /// `properties`: absent or `null` is empty; anything else must be an object.
    private mutating func lintPropertiesObject(_ node: JSONObject, at pointer: JSONPointer) -> JSONObject {
        guard let value = node["properties"], !value.isNull else { return JSONObject() }
        guard let properties = object(value, at: pointer.appending("properties"), what: "\"properties\"") else {
            return JSONObject()
        }
        within(
            properties.count, limits.maximumPropertiesPerNode, name: "maximumPropertiesPerNode",
            at: pointer.appending("properties"), what: "Properties")
        return properties
    }

    /// `fieldId`: required on inputs (docs/wire-format.md "Component vocabulary"), a
    /// non-empty identifier wherever it appears.
    private mutating func lintFieldId(
        _ properties: JSONObject, type: ComponentType?, at pointer: JSONPointer
    ) -> FieldDeclaration? {
        guard properties["fieldId"] != nil || type?.isInput == true else { return nil }
        guard let fieldId = string(properties, "fieldId", at: pointer, why: "; an input stores its answer under it")
        else { return nil }
        checkIdentifier(fieldId, key: "fieldId", at: pointer.appending("fieldId"))
        return FieldDeclaration(name: fieldId, pointer: pointer.appending("fieldId"))
    }

    /// A fallback stands in for its node (docs/wire-format.md "Screen"): it carries the
    /// node's `fieldId` and declares no field the node's subtree lacks.
    private mutating func lintFallback(
        _ fallback: JSONValue, of declared: [FieldDeclaration], ownField: FieldDeclaration?, at pointer: JSONPointer,
        depth: Int
    ) {
        let standIns = lintNode(fallback, at: pointer, depth: depth + 1)
        let known = Set(declared.map { ScalarKey($0.name) })
        var seen: Set<ScalarKey> = []
        if let ownField, !standIns.contains(where: { $0.name.isScalarEqual(to: ownField.name) }) {
            report(
                .fallbackFieldMismatch, pointer,
                "This fallback stands in for the input \(Self.quoted(ownField.name)), so it must carry the same fieldId."
            )
        }
        for standIn in standIns {
            if !known.contains(ScalarKey(standIn.name)) {
                report(
                    .fallbackFieldMismatch, standIn.pointer,
                    "fieldId \(Self.quoted(standIn.name)) is not a field of the node this fallback stands in for.")
            } else if !seen.insert(ScalarKey(standIn.name)).inserted {
                report(
                    .duplicateFieldId, standIn.pointer,
                    "fieldId \(Self.quoted(standIn.name)) appears twice in this fallback.")
            }
        }
    }
}
