import ParleyHTTP

extension ParleyService {
    /// The handler, optional inline fast path and body limit of each route in ``ServiceRoute/all``:
    /// an exhaustive switch, so a new operation without a handler does not compile.
    func endpoint(_ route: ServiceRoute, _ handlers: Handlers, _ openAPI: [UInt8]) -> (
        ServiceEndpoint.Handler, ServiceEndpoint.InlineHandler?, Int
    ) {
        let limits = configuration
        func inlineOnly(_ inline: @escaping ServiceEndpoint.InlineHandler) -> ServiceEndpoint.Handler {
            { request, context, _ in try inline(request, context) ?? HTTPError.internalError.response }
        }
        switch route.operation {
        case .health: return (inlineOnly(handlers.health), handlers.health, 0)
        case .ready: return (handlers.ready, nil, 0)
        case .metrics: return (inlineOnly(handlers.metrics), handlers.metrics, 0)
        case .openapi:
            let serve: ServiceEndpoint.InlineHandler = { _, _ in .json(openAPI) }
            return (inlineOnly(serve), serve, 0)
        case .createFlowVersion: return (handlers.createFlow, nil, limits.maxFlowBytes)
        case .lintFlow: return (handlers.lintFlow, nil, limits.maxFlowBytes)
        case .listFlows: return (handlers.listFlows, nil, 0)
        case .getFlow: return (handlers.getFlow, nil, 0)
        case .listFlowVersions: return (handlers.listVersions, nil, 0)
        case .getFlowVersion: return (handlers.getVersion, nil, 0)
        case .releaseFlowVersion: return (handlers.release, nil, limits.maxSmallBodyBytes)
        case .listReleases: return (handlers.listReleases, nil, 0)
        case .haltRelease: return (handlers.haltRelease, nil, limits.maxSmallBodyBytes)
        case .compareRelease: return (handlers.releaseComparison, nil, 0)
        case .publishBundle: return (handlers.publishBundle, nil, limits.maxBundleBytes)
        case .getStartScreen, .getStepScreen: return (handlers.screen, handlers.screenInline, 0)
        case .validateStep: return (handlers.validateStep, nil, limits.maxSubmitBytes)
        case .startSession: return (handlers.startSession, nil, limits.maxSmallBodyBytes)
        case .getSession: return (handlers.getSession, handlers.sessionInline, 0)
        case .eraseSession: return (handlers.eraseSession, nil, 0)
        case .answerSession: return (handlers.answerSession, nil, limits.maxSubmitBytes)
        case .backSession: return (handlers.backSession, nil, limits.maxSmallBodyBytes)
        case .followSession: return (handlers.followSession, nil, 0)
        case .postSessionEvent: return (handlers.actInSession, nil, limits.maxMessageLength * 12 + 1024)
        case .previewFlow: return (handlers.previewFlow, nil, limits.maxFlowBytes + limits.maxSubmitBytes)
        case .studioRedirect: return (inlineOnly(handlers.rootRedirect), handlers.rootRedirect, 0)
        case .studio, .studioFlow, .studioFlowView: return (inlineOnly(handlers.studioShell), handlers.studioShell, 0)
        case .studioAsset: return (inlineOnly(handlers.studioAsset), handlers.studioAsset, 0)
        case .listCompletions: return (handlers.listCompletions, nil, 0)
        case .createWebhook: return (handlers.createWebhook, nil, limits.maxSmallBodyBytes)
        case .listWebhooks: return (handlers.listWebhooks, nil, 0)
        case .deleteWebhook: return (handlers.deleteWebhook, nil, 0)
        case .listDeliveries: return (handlers.listDeliveries, nil, 0)
        case .retryDelivery: return (handlers.retryDelivery, nil, limits.maxSmallBodyBytes)
        case .getWireSchema:
            let serve: ServiceEndpoint.InlineHandler = { _, context in
                guard let name = context.parameters["name"], let bytes = WireSchemas.files[name] else {
                    throw ServiceProblem.notFound("schemas are \(WireSchemas.roots.map { "\($0.name).json" })")
                }
                return .json(bytes)
            }
            return (inlineOnly(serve), serve, 0)
        case .getFlowVersionSamples: return (handlers.samples, nil, 0)
        }
    }
}
