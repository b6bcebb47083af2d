/// Every operation of the v1 API, one per ``ServiceRoute``; the raw value is its OpenAPI
/// `operationId`. Handlers are chosen by an exhaustive switch over it, so a route without a
/// handler does not compile.
public enum ServiceOperation: String, Sendable, CaseIterable {
    case health
    case ready
    case metrics
    case openapi
    case createFlowVersion
    case lintFlow
    case listFlows
    case getFlow
    case listFlowVersions
    case getFlowVersion
    case releaseFlowVersion
    case listReleases
    case haltRelease
    case compareRelease
    case publishBundle
    case getStartScreen
    case getStepScreen
    case validateStep
    case startSession
    case getSession
    case eraseSession
    case answerSession
    case backSession
    case followSession
    case postSessionEvent
    case previewFlow
    case getWireSchema
    case getFlowVersionSamples
    case studioRedirect
    case studio
    case studioFlow
    case studioFlowView
    case studioAsset
    case listCompletions
    case createWebhook
    case listWebhooks
    case deleteWebhook
    case listDeliveries
    case retryDelivery
    case getFlowFunnel
    case getCapabilities
}
