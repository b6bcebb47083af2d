/// A flow's translations (docs/localization.md): its declared locales, the first being the
/// default, and for every localized position (a JSON Pointer into the flow document) one
/// string per locale. The decoded ``Flow`` holds the default locale's strings in its model, so
/// gating, the interpreter and every existing reader work unchanged; ``Flow/localized(to:)``
/// gives the same flow in another locale, and ``Flow/json`` writes the localized objects back.
public struct FlowLocalization: Sendable, Hashable {
    /// BCP 47 tags as declared; `locales[0]` is the default.
    public let locales: [String]
    /// Per localized position, the string of each locale (as found in the document).
    public let strings: [JSONPointer: [String: String]]

    /// Creates a table.
    public init(locales: [String], strings: [JSONPointer: [String: String]]) {
        self.locales = locales
        self.strings = strings
    }

    /// The default locale.
    public var defaultLocale: String { locales.first ?? "" }

    /// Splits a flow document into its default-locale document and its translations; nil
    /// translations when the document declares no locales and has no localized objects. Tolerant
    /// like the decoder: a localized object without the default picks its first string.
    static func extract(from document: JSONValue) -> (plain: JSONValue, localization: FlowLocalization?) {
        var locales: [String] = []
        if case .array(let declared)? = document["locales"] {
            locales = declared.compactMap(\.stringValue)
        }
        var strings: [JSONPointer: [String: String]] = [:]
        let fallback = locales.first
        var plain = LocalizablePositions.map(flow: document) { pointer, value in
            guard case .object(let localized) = value else { return value }
            var byLocale: [String: String] = [:]
            for member in localized { if let text = member.value.stringValue { byLocale[member.key] = text } }
            strings[pointer] = byLocale
            let chosen =
                fallback.flatMap { byLocale[$0] } ?? localized.members.lazy.compactMap(\.value.stringValue).first
            return .string(chosen ?? "")
        }
        if case .object(var object) = plain {
            object["locales"] = nil
            plain = .object(object)
        }
        guard !locales.isEmpty || !strings.isEmpty else { return (document, nil) }
        return (plain, FlowLocalization(locales: locales, strings: strings))
    }

    /// `document` with every translated position written back as its localized object, and `locales`.
    func applied(to document: JSONValue) -> JSONValue {
        let written = LocalizablePositions.map(flow: document) { pointer, value in
            guard let byLocale = strings[pointer] else { return value }
            return .object(JSONObject(byLocale.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        guard case .object(var object) = written else { return written }
        object["locales"] = .array(locales.map(JSONValue.string))
        return .object(object)
    }

    /// `document` (a default-locale document) with every translated position in `locale`; a
    /// position without that locale keeps the default's string.
    func resolved(_ document: JSONValue, to locale: String) -> JSONValue {
        LocalizablePositions.map(flow: document) { pointer, value in
            guard let text = strings[pointer]?[locale] else { return value }
            return .string(text)
        }
    }
}

extension FlowLocalization {
    /// Translations of a one-language flow document from string tables: each table maps strings of
    /// `defaultLocale` (as they appear in the document) to another locale's. A string a table
    /// lacks gets no entry for that locale, which lint refuses as `missingLocale`: a flow never
    /// falls back to the default language half-way through.
    public static func translating(
        _ document: JSONValue, from defaultLocale: String, _ tables: [String: [String: String]]
    ) -> FlowLocalization {
        let others = tables.keys.sorted()
        var strings: [JSONPointer: [String: String]] = [:]
        _ = LocalizablePositions.map(flow: document) { pointer, value in
            guard case .string(let text) = value else { return value }
            var byLocale = [defaultLocale: text]
            for locale in others { byLocale[locale] = tables[locale]?[text] }
            strings[pointer] = byLocale
            return value
        }
        return FlowLocalization(locales: [defaultLocale] + others, strings: strings)
    }
}
