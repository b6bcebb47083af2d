public import ParleyCore

extension Flow {
    /// A flow built from steps; `start` defaults to the first step's id.
    ///
    ///     Flow("passport-intake", title: "Passport intake") {
    ///         Step("country") { … } next: { Next(go: "done") }
    ///         Step("done") { Text("Thanks!") }
    ///     }
    public init(
        _ id: String, title: String? = nil, start: String? = nil, upgrade: Screen? = nil,
        @StepBuilder steps: () -> [Step]
    ) {
        let built = steps()
        self.init(id: id, title: title, start: start ?? built.first?.id ?? "", steps: built, upgrade: upgrade)
    }
}

extension Flow {
    /// This flow in several languages (docs/localization.md): its strings are written in
    /// `defaultLocale`, and each table maps them to another locale's, so a flow is one source
    /// for every language instead of one flow per language kept in step by hand.
    ///
    ///     Flow("passport-intake") { … }
    ///         .translated(from: "en", ["fr": ["Passport": "Passeport", …]])
    ///
    /// A string a table lacks is left without that locale, and lint refuses the flow
    /// (`missingLocale`, with the string's pointer).
    public func translated(from defaultLocale: String, _ tables: [String: [String: String]]) -> Flow {
        var flow = self
        flow.localization = nil
        flow.localization = FlowLocalization.translating(flow.json, from: defaultLocale, tables)
        return flow
    }
}

extension Flow {
    /// How long the server keeps this flow's ended sessions (README "Retention"), instead of its
    /// default:
    ///
    ///     Flow("passport-intake") { … }.retained(for: .days(90))
    public func retained(for period: RetentionPeriod) -> Flow {
        var flow = self
        flow.retention = period
        return flow
    }
}
