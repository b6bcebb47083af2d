/// Who may call a route.
public enum RouteAccess: Sendable, Equatable {
    /// No token needed (ops endpoints; client endpoints unless a client key is configured).
    case open
    /// Client endpoints: open, or the configured client key when one is set.
    case client
    /// Any valid token, whatever its scope.
    case anyToken
    /// A token whose scope grants this one.
    case scope(AccessScope)
}

/// One route of the v1 API: the single table from which the router is built
/// and `/openapi.json` is written, so the two cannot drift apart.
public struct ServiceRoute: Sendable {
    /// HTTP method.
    public let method: String
    /// Path template with `{name}` parameters.
    public let path: String
    /// What the route does: picks its handler (an exhaustive switch) and names it in OpenAPI.
    public let operation: ServiceOperation
    /// One-line summary.
    public let summary: String
    /// Who may call it.
    public let access: RouteAccess
    /// Name of the request body schema in `components/schemas`, if the route takes a body.
    public let requestSchema: String?
    /// Success status codes with their response schema names (nil: no JSON body).
    public let responses: [(status: Int, schema: String?, description: String)]
    /// Error statuses the route may answer with problem+json.
    public let problems: [Int]

    /// The v1 API (docs/http-api.md).
    public static let all: [ServiceRoute] = [
        ServiceRoute(
            "GET", "/healthz", .health, "Liveness: the process answers.", .open,
            responses: [(200, "Status", "alive")]),
        ServiceRoute(
            "GET", "/readyz", .ready, "Readiness: database reachable and migrations applied.", .open,
            responses: [(200, "Status", "ready")], problems: [503]),
        ServiceRoute(
            "GET", "/metrics", .metrics, "Prometheus metrics (text exposition format).", .open,
            responses: [(200, nil, "metrics text")]),
        ServiceRoute(
            "GET", "/openapi.json", .openapi, "This OpenAPI 3.1 document.", .open,
            responses: [(200, "OpenAPI", "the document")]),
        ServiceRoute(
            "GET", "/schemas/{name}", .getWireSchema,
            "JSON Schema 2020-12 of a wire document: flow.json, screen.json, session.json, problem.json, bundle.json.",
            .open, responses: [(200, "JSONSchema", "the schema")], problems: [404]),
        ServiceRoute(
            "POST", "/v1/flows", .createFlowVersion,
            "Store a new immutable flow version (idempotent on identical content; If-Match on the latest version).",
            .scope(.author), requestSchema: "Flow",
            responses: [(201, "FlowVersion", "created"), (200, "FlowVersion", "identical to the latest version")],
            problems: [400, 401, 403, 412, 413, 415, 422]),
        ServiceRoute(
            "POST", "/v1/flows/lint", .lintFlow, "Dry run: lint problems and servability per core version.",
            .scope(.author), requestSchema: "FlowDraft", responses: [(200, "LintReport", "the report")],
            problems: [400, 401, 403, 413]),
        ServiceRoute(
            "POST", "/v1/flows/preview", .previewFlow,
            "Dry run: an unsaved flow's step gated for one or every supported core, and with answers the "
                + "interpreter's outcome and next step. Stores nothing.",
            .scope(.author), requestSchema: "PreviewRequest", responses: [(200, "Preview", "the preview")],
            problems: [400, 401, 403, 413, 415, 422]),
        ServiceRoute(
            "GET", "/v1/flows", .listFlows, "Flows with their latest version and live releases (paginated).",
            .anyToken, responses: [(200, "FlowList", "a page of flows")], problems: [400, 401]),
        ServiceRoute(
            "GET", "/v1/flows/{id}", .getFlow, "One flow: latest version and live releases.", .anyToken,
            responses: [(200, "FlowSummary", "the flow")], problems: [401, 404]),
        ServiceRoute(
            "GET", "/v1/flows/{id}/versions", .listFlowVersions, "The flow's versions, newest first (paginated).",
            .anyToken, responses: [(200, "FlowVersionList", "a page of versions")], problems: [400, 401, 404]),
        ServiceRoute(
            "GET", "/v1/flows/{id}/versions/{n}", .getFlowVersion, "One version with its content.", .anyToken,
            responses: [(200, "FlowVersion", "the version")], problems: [400, 401, 404]),
        ServiceRoute(
            "GET", "/v1/flows/{id}/versions/{n}/samples", .getFlowVersionSamples,
            "Deterministic answers per step: boundary values that pass, and for each rule one that fails exactly it "
                + "(?step=, ?core= marks deferred rules, ?seed=).",
            .scope(.author), responses: [(200, "Samples", "the parley.samples/1 document")],
            problems: [400, 401, 403, 404]),
        ServiceRoute(
            "POST", "/v1/flows/{id}/releases", .releaseFlowVersion,
            "Make a version live on a channel; rollback is releasing an older version.", .scope(.publish),
            requestSchema: "ReleaseRequest", responses: [(201, "Release", "released")],
            problems: [400, 401, 403, 404, 422]),
        ServiceRoute(
            "GET", "/v1/flows/{id}/releases", .listReleases, "Release history of the flow, newest first.",
            .anyToken, responses: [(200, "ReleaseList", "the history")], problems: [401, 404]),
        ServiceRoute(
            "POST", "/v1/flows/{id}/releases/{r}/halt", .haltRelease,
            "Stop new sessions from entering a partial release; they get the previous full release again.",
            .scope(.publish), responses: [(200, "Release", "halted (or already halted)")],
            problems: [400, 401, 403, 404, 409, 413]),
        ServiceRoute(
            "GET", "/v1/flows/{id}/releases/{r}/comparison", .compareRelease,
            "The release's version beside the previous full release's since the rollout began.", .anyToken,
            responses: [(200, "ReleaseComparison", "sessions per version")], problems: [400, 401, 404]),
        ServiceRoute(
            "POST", "/v1/bundles", .publishBundle,
            "Apply a signed bundle atomically (Parley-Signature header); re-posting is a no-op.", .scope(.publish),
            requestSchema: "Bundle",
            responses: [(201, "BundleResult", "applied"), (200, "BundleResult", "already applied")],
            problems: [400, 401, 403, 413, 422]),
        ServiceRoute(
            "GET", "/v1/screens/{flow}", .getStartScreen,
            "The live version's start step, gated for the Parley-Core header.", .client,
            responses: [(200, "GatedScreen", "the gated screen"), (304, nil, "not modified")],
            problems: [400, 401, 404]),
        ServiceRoute(
            "GET", "/v1/screens/{flow}/{step}", .getStepScreen,
            "A step of the live version, gated for the Parley-Core header.", .client,
            responses: [(200, "GatedScreen", "the gated screen"), (304, nil, "not modified")],
            problems: [400, 401, 404]),
        ServiceRoute(
            "POST", "/v1/flows/{flow}/validate", .validateStep,
            "Dry run: the interpreter's outcome for one step's answers (optionally with the answers of earlier "
                + "steps as context). Stores nothing; only sessions make answers count.",
            .client, requestSchema: "ValidateRequest", responses: [(200, "ValidationOutcome", "the outcome")],
            problems: [400, 401, 404, 413, 415]),
        ServiceRoute(
            "POST", "/v1/sessions", .startSession,
            "Start a session on the channel's live version, pinned with the Parley-Core header.", .client,
            requestSchema: "SessionStart", responses: [(201, "SessionSnapshot", "the first snapshot")],
            problems: [400, 401, 404, 413, 415]),
        ServiceRoute(
            "GET", "/v1/sessions/{id}", .getSession, "The session's snapshot; ETag is the rev.", .client,
            responses: [(200, "SessionSnapshot", "the snapshot"), (304, nil, "not modified")],
            problems: [401, 404, 410]),
        ServiceRoute(
            "DELETE", "/v1/sessions/{id}", .eraseSession,
            "Erase the session's answers everywhere (a tombstone stays; session.erased is sent); then 410.",
            .scope(.admin), responses: [(204, nil, "erased")], problems: [401, 403, 404, 410]),
        ServiceRoute(
            "POST", "/v1/sessions/{id}/answers", .answerSession,
            "Answer the current step (Idempotency-Key honoured); 200 with the next snapshot, 422 with errors.",
            .client, requestSchema: "SessionAnswers",
            responses: [
                (200, "AnswerResult", "the next snapshot, with the answers cleared because their input is hidden")
            ],
            problems: [400, 401, 404, 409, 410, 413, 415, 422]),
        ServiceRoute(
            "POST", "/v1/sessions/{id}/back", .backSession,
            "Go back to the previous step of the path (Idempotency-Key honoured).", .client,
            requestSchema: "SessionBack", responses: [(200, "SessionSnapshot", "the previous step's snapshot")],
            problems: [400, 401, 404, 409, 410, 413, 415, 422]),
        ServiceRoute(
            "GET", "/v1/sessions/{id}/events", .followSession,
            "Follow the session live: a text/event-stream of `snapshot` events (id: rev, data: the snapshot), the "
                + "current one first unless Last-Event-ID names it; ends after a completed session's last snapshot.",
            .client, responses: [(200, nil, "text/event-stream of snapshot events")],
            problems: [400, 401, 404, 410, 503]),
        ServiceRoute(
            "POST", "/v1/sessions/{id}/events", .postSessionEvent,
            "An agent acts in the session: {\"say\": {\"text\", \"from\"?}} appends a message, {\"goto\": step} "
                + "moves it; optional rev is a compare-and-set (Idempotency-Key honoured).",
            .scope(.agent), requestSchema: "SessionEvent", responses: [(200, "SessionSnapshot", "the new snapshot")],
            problems: [400, 401, 403, 404, 409, 410, 413, 415, 422]),
        ServiceRoute(
            "GET", "/", .studioRedirect, "Sends people who open the server's address to the studio.", .open,
            responses: [(302, nil, "to /studio")]),
        ServiceRoute(
            "GET", "/studio", .studio, "The web studio (HTML app shell; docs/authoring.md \"The studio\").", .open,
            responses: [(200, nil, "the page"), (304, nil, "not modified")]),
        ServiceRoute(
            "GET", "/studio/flows/{flow}", .studioFlow, "The studio on one flow (a shareable link).", .open,
            responses: [(200, nil, "the page"), (304, nil, "not modified")]),
        ServiceRoute(
            "GET", "/studio/flows/{flow}/{view}", .studioFlowView,
            "The studio on one view of a flow: editor, preview, try, graph or funnel.", .open,
            responses: [(200, nil, "the page"), (304, nil, "not modified")], problems: [404]),
        ServiceRoute(
            "GET", "/studio/assets/{asset}", .studioAsset,
            "A studio script, style sheet or icon; parley-core.wasm (ParleyCore in WebAssembly) and the web client kit.",
            .open,
            responses: [(200, nil, "the file"), (304, nil, "not modified")], problems: [404]),
        ServiceRoute(
            "GET", "/v1/flows/{id}/funnel", .getFlowFunnel,
            "The flow's funnel from stored sessions: per step reachable (branch-aware), reached, passed, drop-off, median seconds and rejections per rule and core.",
            .scope(.author), responses: [(200, "Funnel", "the funnel")], problems: [400, 401, 403, 404]),
        ServiceRoute(
            "GET", "/v1/capabilities", .getCapabilities,
            "The capability registry: each component type, property, action type, rule kind and what expressions add, with the core version that introduced it.",
            .anyToken, responses: [(200, "Capabilities", "the registry")], problems: [401]),
        ServiceRoute(
            "GET", "/v1/flows/{id}/completions", .listCompletions,
            "Completed sessions of the flow, oldest first, after a cursor (NDJSON with Accept: application/x-ndjson).",
            .scope(.admin), responses: [(200, "CompletionList", "a page of completions")],
            problems: [400, 401, 403, 404]),
        ServiceRoute(
            "POST", "/v1/webhooks", .createWebhook,
            "Register a webhook endpoint (public https unless the server allows private); the secret is shown once.",
            .scope(.admin), requestSchema: "WebhookRequest", responses: [(201, "WebhookCreated", "registered")],
            problems: [400, 401, 403, 409, 413, 415, 422]),
        ServiceRoute(
            "GET", "/v1/webhooks", .listWebhooks, "Registered endpoints (never their secrets).", .scope(.admin),
            responses: [(200, "WebhookList", "every endpoint")], problems: [401, 403]),
        ServiceRoute(
            "DELETE", "/v1/webhooks/{id}", .deleteWebhook, "Remove an endpoint and its pending deliveries.",
            .scope(.admin), responses: [(204, nil, "removed")], problems: [401, 403, 404]),
        ServiceRoute(
            "GET", "/v1/webhooks/{id}/deliveries", .listDeliveries, "The endpoint's deliveries, newest first.",
            .scope(.admin), responses: [(200, "DeliveryList", "a page of deliveries")], problems: [400, 401, 403, 404]),
        ServiceRoute(
            "POST", "/v1/webhooks/{id}/deliveries/{delivery}/retry", .retryDelivery,
            "Make a dead or pending delivery due now, its attempts counted afresh.", .scope(.admin),
            responses: [(202, "Status", "due now")], problems: [400, 401, 403, 404, 409]),
    ]

    init(
        _ method: String, _ path: String, _ operation: ServiceOperation, _ summary: String, _ access: RouteAccess,
        requestSchema: String? = nil, responses: [(status: Int, schema: String?, description: String)],
        problems: [Int] = []
    ) {
        self.method = method
        self.path = path
        self.operation = operation
        self.summary = summary
        self.access = access
        self.requestSchema = requestSchema
        self.responses = responses
        // Every path parameter is checked (1 to 200 bytes, no U+0000; numbers positive): a bad one is a 400.
        // Every /v1 route reads the database, which may be unreachable or unmigrated: 503.
        var problems = problems
        if path.contains("{"), !problems.contains(400), !path.hasPrefix("/schemas/") { problems.append(400) }
        if path.hasPrefix("/v1/"), !problems.contains(503) { problems.append(503) }
        self.problems = problems.sorted()
    }

    /// OpenAPI `operationId`.
    public var operationId: String { operation.rawValue }

    /// The `{name}` parameters of the path template, in order.
    public var pathParameters: [String] {
        path.split(separator: "/").compactMap { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? String(segment.dropFirst().dropLast()) : nil
        }
    }
}
