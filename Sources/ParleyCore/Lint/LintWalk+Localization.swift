extension LintWalk {
    /// The most locales one flow may declare.
    static let maximumLocalesPerFlow = 64

    /// Checks a flow's `locales` and every localized string (docs/localization.md), and returns
    /// the document in its default locale, on which the rest of the flow is linted: every other
    /// locale differs only in strings, each checked here.
    mutating func lintLocalization(_ flow: JSONValue, at pointer: JSONPointer) -> JSONValue {
        let locales = declaredLocales(flow, at: pointer)
        // Spelled exactly as declared: resolution looks strings up by the declared tag.
        let declared = Set(locales)
        _ = LocalizablePositions.map(flow: flow) { relative, value in
            guard case .object(let localized) = value else { return value }
            let at = JSONPointer(tokens: pointer.tokens + relative.tokens)
            guard !locales.isEmpty else {
                report(
                    .undeclaredLocale, at,
                    "This string is localized, but the flow declares no \"locales\"; add \"locales\": [\"en\", …].")
                return value
            }
            var present: Set<String> = []
            for member in localized {
                let memberPointer = at.appending(member.key)
                if !declared.contains(member.key) {
                    report(
                        .undeclaredLocale, memberPointer,
                        "\(Self.quoted(member.key)) is not one of the flow's locales as declared (\(locales.joined(separator: ", ")))."
                    )
                }
                present.insert(member.key)
                guard case .string(let text) = member.value else {
                    report(
                        .wrongType, memberPointer,
                        "A localized string must be a string, found \(member.value.kindDescription).")
                    continue
                }
                if text.unicodeScalars.count > limits.maximumStringLength {
                    report(
                        .limitExceeded, memberPointer,
                        "Strings are limited to \(limits.maximumStringLength) characters (maximumStringLength).")
                }
            }
            for locale in locales where !present.contains(locale) {
                report(
                    .missingLocale, at, "The \(Self.quoted(locale)) string is missing; every declared locale needs one."
                )
            }
            return value
        }
        return FlowLocalization.extract(from: flow).plain
    }

    /// The well-formed, distinct tags of `locales` (empty when absent), reporting every bad entry.
    private mutating func declaredLocales(_ flow: JSONValue, at pointer: JSONPointer) -> [String] {
        guard let value = flow["locales"], !value.isNull else { return [] }
        let localesPointer = pointer.appending("locales")
        guard case .array(let entries) = value else {
            report(
                .wrongType, localesPointer,
                "\"locales\" must be an array of language tags, found \(value.kindDescription).")
            return []
        }
        if entries.isEmpty {
            report(
                .invalidValue, localesPointer,
                "\"locales\" must list at least one language tag (the first is the default).")
        }
        within(
            entries.count, Self.maximumLocalesPerFlow, name: "maximumLocalesPerFlow", at: localesPointer,
            what: "Locales")
        var tags: [String] = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let tag) = entry else {
                report(
                    .wrongType, localesPointer.appending(index),
                    "A locale must be a string, found \(entry.kindDescription).")
                continue
            }
            guard LanguageTag.isWellFormed(tag) else {
                report(
                    .invalidLocaleTag, localesPointer.appending(index),
                    "\(Self.quoted(tag)) is not a BCP 47 language tag (e.g. \"en\", \"fr-CA\", \"zh-Hant\").")
                continue
            }
            if tags.contains(where: { LanguageTag.equal($0, tag) }) {
                report(.invalidValue, localesPointer.appending(index), "\(Self.quoted(tag)) is listed twice.")
                continue
            }
            tags.append(tag)
        }
        return tags
    }
}
