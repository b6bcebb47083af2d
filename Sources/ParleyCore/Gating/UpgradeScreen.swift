/// The screen served when a step cannot be rendered by a core and the flow
/// brings no `upgrade` screen of its own (docs/gating.md, rule 4).
///
/// Built only from core 1.0 components (`vstack`, `text`), so every supported
/// core renders it.
public enum UpgradeScreen {
    /// The built-in upgrade screen.
    public static let builtIn = Screen(
        id: "parley-upgrade", title: "Update required",
        root: Node(
            type: .vstack, id: "parley-upgrade-root", properties: JSONObject([("spacing", "m")]),
            children: [
                Node(
                    type: .text, id: "parley-upgrade-title",
                    properties: JSONObject([("text", "Please update the app"), ("style", "title")])),
                Node(
                    type: .text, id: "parley-upgrade-body",
                    properties: JSONObject([
                        (
                            "text",
                            "This step needs a newer version of the app. Update it from your app store to continue."
                        )
                    ])),
            ]))
}
