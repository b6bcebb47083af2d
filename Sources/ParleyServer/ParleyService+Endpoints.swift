import ParleyHTTP

extension ParleyService {
    /// The handler and body limit of each route in ``ServiceRoute/all``: an exhaustive switch, so
    /// a new operation without a handler does not compile. A handler's signature says where it
    /// runs: `async` ones off the loop, plain ones on it, ``HTTPReply`` ones decide per request.
    ///
    /// Every handler's off-loop work renders its own errors (``ServiceEndpoint`` composes them with
    /// `handlerRendersErrors`), so no layer wraps it in one more async closure to do so.
    func endpoint(_ route: ServiceRoute, _ handlers: FeatureHandlers) -> (ServiceEndpoint.Handler, Int) {
        let limits = configuration
        typealias Suspending = @Sendable (HTTPRequest, RequestContext, Caller) async throws -> HTTPResponse
        typealias Immediate = @Sendable (HTTPRequest, RequestContext) throws -> HTTPResponse
        typealias Replying = @Sendable (HTTPRequest, RequestContext) throws -> HTTPReply
        func offLoop(_ handler: @escaping Suspending) -> ServiceEndpoint.Handler {
            { request, context in
                .offLoop {
                    await Self.rendering(request, context) { try await handler(request, context.http, context.caller) }
                }
            }
        }
        func onLoop(_ handler: @escaping Immediate) -> ServiceEndpoint.Handler {
            { request, context in .now(try handler(request, context.http)) }
        }
        func replying(_ handler: @escaping Replying) -> ServiceEndpoint.Handler {
            { request, context in
                switch try handler(request, context.http) {
                case .now(let response): return .now(response)
                case .offLoop(let work):
                    return .offLoop { await Self.rendering(request, context, work) }
                }
            }
        }
        switch route.operation {
        case .health: return (onLoop(handlers.operations.health), 0)
        case .ready: return (offLoop(handlers.operations.ready), 0)
        case .metrics: return (onLoop(handlers.operations.metrics), 0)
        case .openapi:
            return (onLoop(handlers.operations.openAPIDocument), 0)
        case .getWireSchema: return (onLoop(handlers.operations.wireSchema), 0)
        case .studioRedirect:
            return (onLoop(handlers.operations.rootRedirect), 0)
        case .studio, .studioFlow, .studioFlowView:
            return (onLoop(handlers.operations.studioShell), 0)
        case .studioAsset: return (onLoop(handlers.operations.studioAsset), 0)
        case .createFlowVersion: return (offLoop(handlers.flows.createFlow), limits.maxFlowBytes)
        case .lintFlow: return (offLoop(handlers.flows.lintFlow), limits.maxFlowBytes)
        case .listFlows: return (offLoop(handlers.flows.listFlows), 0)
        case .getFlow: return (offLoop(handlers.flows.getFlow), 0)
        case .listFlowVersions: return (offLoop(handlers.flows.listVersions), 0)
        case .getFlowVersion: return (offLoop(handlers.flows.getVersion), 0)
        case .getFlowVersionSamples: return (offLoop(handlers.flows.samples), 0)
        case .releaseFlowVersion: return (offLoop(handlers.flows.release), limits.maxSmallBodyBytes)
        case .listReleases: return (offLoop(handlers.flows.listReleases), 0)
        case .haltRelease: return (offLoop(handlers.flows.haltRelease), limits.maxSmallBodyBytes)
        case .compareRelease: return (offLoop(handlers.flows.releaseComparison), 0)
        case .validateStep: return (offLoop(handlers.flows.validateStep), limits.maxSubmitBytes)
        case .previewFlow: return (offLoop(handlers.flows.previewFlow), limits.maxFlowBytes + limits.maxSubmitBytes)
        case .publishBundle: return (offLoop(handlers.bundles.publishBundle), limits.maxBundleBytes)
        case .getStartScreen, .getStepScreen: return (replying(handlers.screens.screen), 0)
        case .startSession: return (offLoop(handlers.sessions.startSession), limits.maxSmallBodyBytes)
        case .getSession: return (replying(handlers.sessions.getSession), 0)
        case .answerSession:
            // The method called in the work itself: through `offLoop(_:)` a method reference is
            // one more async closure (its own frame and executor switch) on every answer.
            let sessions = handlers.sessions
            return (
                { request, context in
                    .offLoop {
                        await Self.rendering(request, context) {
                            try await sessions.answerSession(request, context.http, context.caller)
                        }
                    }
                }, limits.maxSubmitBytes
            )
        case .backSession: return (offLoop(handlers.sessions.backSession), limits.maxSmallBodyBytes)
        case .followSession: return (offLoop(handlers.live.followSession), 0)
        case .postSessionEvent: return (offLoop(handlers.live.actInSession), limits.maxMessageLength * 12 + 1024)
        case .eraseSession: return (offLoop(handlers.privacy.eraseSession), 0)
        case .listCompletions: return (offLoop(handlers.delivery.listCompletions), 0)
        case .createWebhook: return (offLoop(handlers.delivery.createWebhook), limits.maxSmallBodyBytes)
        case .listWebhooks: return (offLoop(handlers.delivery.listWebhooks), 0)
        case .deleteWebhook: return (offLoop(handlers.delivery.deleteWebhook), 0)
        case .listDeliveries: return (offLoop(handlers.delivery.listDeliveries), 0)
        case .retryDelivery: return (offLoop(handlers.delivery.retryDelivery), limits.maxSmallBodyBytes)
        case .getFlowFunnel: return (offLoop(handlers.funnel.funnel), 0)
        case .getCapabilities: return (offLoop(handlers.funnel.capabilities), 0)
        }
    }

    /// Whether an operation's off-loop work runs on the request's event loop
    /// (``HTTPRoute/runsOnLoop``): the session operations, whose work between suspensions is
    /// memory only (the snapshot cache, a rule check of a small body, the new snapshot) and
    /// whose database calls suspend without blocking (queued appends and reads, connections
    /// opened on a queue of their own). Every other operation runs on a responder: a new one
    /// too, unless listed here, since a lint, a bundle's verification or a preview is CPU work
    /// that would hold the loop.
    static func runsOnLoop(_ operation: ServiceOperation) -> Bool {
        switch operation {
        case .startSession, .getSession, .answerSession, .backSession: return true
        default: return false
        }
    }

    /// `work`'s response, or the one its error becomes as every layer renders it
    /// (``HTTPNext/response(for:_:_:)``): each handler's off-loop work ends here, so no middleware
    /// layer wraps it in one more async closure to do so. Always inlined: called, it would be
    /// that frame again.
    @inline(__always)
    static func rendering(
        _ request: HTTPRequest, _ context: ServiceRequestContext, _ work: () async throws -> HTTPResponse
    ) async -> HTTPResponse {
        do {
            return try await work()
        } catch {
            return HTTPNext.response(for: error, request, context)
        }
    }
}
