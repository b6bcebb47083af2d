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
