/// One handler value per feature, for ``ParleyService/endpoint(_:_:)``'s exhaustive switch over
/// ``ServiceOperation``.
struct FeatureHandlers: Sendable {
    let screens: ScreenHandlers
    let flows: FlowHandlers
    let bundles: BundleHandlers
    let sessions: SessionHandlers
    let live: LiveHandlers
    let delivery: DeliveryHandlers
    let privacy: PrivacyHandlers
    let operations: OperationsHandlers
}
