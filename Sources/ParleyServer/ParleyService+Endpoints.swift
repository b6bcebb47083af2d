import ParleyHTTP

extension ParleyService {
    /// The handler, optional inline fast path and body limit of each route in ``ServiceRoute/all``:
    /// an exhaustive switch, so a new operation without a handler does not compile.
    func endpoint(_ route: ServiceRoute, _ handlers: FeatureHandlers) -> (
        ServiceEndpoint.Handler, ServiceEndpoint.InlineHandler?, Int
    ) {
        let limits = configuration
        func inlineOnly(_ inline: @escaping ServiceEndpoint.InlineHandler) -> ServiceEndpoint.Handler {
            { request, context, _ in try inline(request, context) ?? HTTPError.internalError.response }
        }
        switch route.operation {
        case .health: return (inlineOnly(handlers.operations.health), handlers.operations.health, 0)
        case .ready: return (handlers.operations.ready, nil, 0)
        case .metrics: return (inlineOnly(handlers.operations.metrics), handlers.operations.metrics, 0)
        case .openapi:
            return (inlineOnly(handlers.operations.openAPIDocument), handlers.operations.openAPIDocument, 0)
        case .getWireSchema: return (inlineOnly(handlers.operations.wireSchema), handlers.operations.wireSchema, 0)
        case .studioRedirect:
            return (inlineOnly(handlers.operations.rootRedirect), handlers.operations.rootRedirect, 0)
        case .studio, .studioFlow, .studioFlowView:
            return (inlineOnly(handlers.operations.studioShell), handlers.operations.studioShell, 0)
        case .studioAsset: return (inlineOnly(handlers.operations.studioAsset), handlers.operations.studioAsset, 0)
        case .createFlowVersion: return (handlers.flows.createFlow, nil, limits.maxFlowBytes)
        case .lintFlow: return (handlers.flows.lintFlow, nil, limits.maxFlowBytes)
        case .listFlows: return (handlers.flows.listFlows, nil, 0)
        case .getFlow: return (handlers.flows.getFlow, nil, 0)
        case .listFlowVersions: return (handlers.flows.listVersions, nil, 0)
        case .getFlowVersion: return (handlers.flows.getVersion, nil, 0)
        case .getFlowVersionSamples: return (handlers.flows.samples, nil, 0)
        case .releaseFlowVersion: return (handlers.flows.release, nil, limits.maxSmallBodyBytes)
        case .listReleases: return (handlers.flows.listReleases, nil, 0)
        case .haltRelease: return (handlers.flows.haltRelease, nil, limits.maxSmallBodyBytes)
        case .compareRelease: return (handlers.flows.releaseComparison, nil, 0)
        case .validateStep: return (handlers.flows.validateStep, nil, limits.maxSubmitBytes)
        case .previewFlow: return (handlers.flows.previewFlow, nil, limits.maxFlowBytes + limits.maxSubmitBytes)
        case .publishBundle: return (handlers.bundles.publishBundle, nil, limits.maxBundleBytes)
        case .getStartScreen, .getStepScreen: return (handlers.screens.screen, handlers.screens.screenInline, 0)
        case .startSession: return (handlers.sessions.startSession, nil, limits.maxSmallBodyBytes)
        case .getSession: return (handlers.sessions.getSession, handlers.sessions.sessionInline, 0)
        case .answerSession: return (handlers.sessions.answerSession, nil, limits.maxSubmitBytes)
        case .backSession: return (handlers.sessions.backSession, nil, limits.maxSmallBodyBytes)
        case .followSession: return (handlers.live.followSession, nil, 0)
        case .postSessionEvent: return (handlers.live.actInSession, nil, limits.maxMessageLength * 12 + 1024)
        case .eraseSession: return (handlers.privacy.eraseSession, nil, 0)
        case .listCompletions: return (handlers.delivery.listCompletions, nil, 0)
        case .createWebhook: return (handlers.delivery.createWebhook, nil, limits.maxSmallBodyBytes)
        case .listWebhooks: return (handlers.delivery.listWebhooks, nil, 0)
        case .deleteWebhook: return (handlers.delivery.deleteWebhook, nil, 0)
        case .listDeliveries: return (handlers.delivery.listDeliveries, nil, 0)
        case .retryDelivery: return (handlers.delivery.retryDelivery, nil, limits.maxSmallBodyBytes)
        }
    }
}
