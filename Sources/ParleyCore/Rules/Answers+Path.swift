extension Answers {
    /// These answers with `later` laid over them: a field `later` answers takes `later`'s value.
    ///
    /// This is how the answers of a session's path add up, step after step (docs/sessions.md).
    public func merging(_ later: Answers) -> Answers {
        guard storage != nil, let laterStorage = later.storage else { return storage == nil ? later : self }
        var merged = self
        // Bytes to bytes: no `String` made of an id or a value. Each update makes one storage of
        // the merged size (a path's are a few hundred bytes): `later` is a step's handful.
        laterStorage.withEntries { entries in
            for index in 0..<entries.count { merged.update(key: entries.key(index), value: entries.value(index)) }
        }
        return merged
    }

    /// The answers the rules and transitions of `screen` read (docs/sessions.md): a field of
    /// the screen from this step's `answers` alone (absent there is absent, whatever `context`
    /// holds); any other field from `context`, the answers of earlier steps of the path. A
    /// submitted field that is not on the screen is never read (the server refuses it as
    /// `unexpectedField`; a client core ignores it).
    ///
    /// Both the interpreter and ``Step/nextStepId(for:context:)`` read through this, so a step's
    /// rules and its transitions can never see different values for one field.
    public static func onPath(_ answers: Answers, context: Answers, screen: Screen) -> Answers {
        // A screen declares a handful of fields: a list compared scalar by scalar costs less than
        // hashing them into a set, and the context (which grows with the path) is only touched
        // where the screen has a field, so the 50th step costs what the 1st does but for copying
        // the context's bytes (packed: one allocation and two `memcpy`s a field of the screen).
        let onScreen = screen.fieldIdList
        // Copy one side and remove from it rather than rebuilding (each removal keeps the order).
        var visible = answers
        var index = visible.count - 1
        while index >= 0 {
            if !visible.fieldId(at: index, isAmong: onScreen) { visible.removeEntry(at: index) }
            index -= 1
        }
        guard context.storage != nil else { return visible }
        // Each field of the screen takes this step's value, or none: its earlier one goes either way.
        var merged = context
        for field in onScreen {
            withUTF8(field) { key in
                guard let storage = visible.storage else { return merged.update(key: key, value: nil) }
                storage.withEntries { entries in
                    let (index, found) = entries.position(of: key)
                    merged.update(key: key, value: found ? entries.value(index) : nil)
                }
            }
        }
        return merged
    }
}

extension Screen {
    /// Every field under `root`, fallbacks' fields included, in document order (``fieldIdList``).
    static func fieldIdList(of root: Node) -> [String] {
        var fields: [String] = []
        func collect(_ node: Node) {
            if let field = node.fieldId { fields.append(field) }
            for child in node.children { collect(child) }
            if let fallback = node.fallback { collect(fallback) }
        }
        collect(root)
        return fields
    }

    /// Every field the screen declares, fallbacks' fields included (they stand in for their node).
    var fieldKeys: Set<ScalarKey> {
        var keys = Set<ScalarKey>()
        func collect(_ node: Node) {
            if let field = node.fieldId { keys.insert(ScalarKey(field)) }
            node.children.forEach(collect)
            if let fallback = node.fallback { collect(fallback) }
        }
        collect(root)
        return keys
    }
}
