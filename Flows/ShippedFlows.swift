public import ParleyCore

/// The flows this deployment ships, compiled from the DSL. `parley bundle
/// build` puts them first in a bundle, before the designer-authored
/// `Flows/json/*.json` flows.
public enum ShippedFlows {
    /// Every shipped flow, in a fixed order (bundles are deterministic).
    public static var all: [Flow] { [passportIntake, chatSupport, deliveryAddress, travelInsurance] }
}
