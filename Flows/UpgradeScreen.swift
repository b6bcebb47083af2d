import ParleyCore
import ParleyDSL

extension ShippedFlows {
    /// The screen served to cores that cannot render a step (gating rule 4).
    static func upgradeScreen(_ what: String) -> Screen {
        Screen("upgrade", title: "Update required", spacing: .m) {
            Text("Please update the app to continue \(what).", style: .headline)
            Text("This step needs a newer version of the app.", style: .caption)
        }
    }
}
