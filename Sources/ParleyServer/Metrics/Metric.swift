/// Every series `/metrics` shows (Prometheus text format, DESIGN.md "HTTP API"), each with its
/// HELP text and TYPE beside its name: the registry records only these, so a series cannot be
/// recorded without a description, and `MetricCatalogueTests` checks each is recorded somewhere.
enum Metric: String, CaseIterable, Sendable {
    case httpRequests = "parley_http_requests_total"
    case httpRequestDuration = "parley_http_request_duration_seconds"
    case gatingSubstitutions = "parley_gating_substitutions_total"
    case submitRejections = "parley_submit_rejections_total"
    case screenCache = "parley_screen_cache_total"
    case sessionsStarted = "parley_sessions_started_total"
    case sessionSteps = "parley_session_steps_total"
    case sessionCompletions = "parley_session_completions_total"
    case sessionExpirations = "parley_session_expirations_total"
    case sessionsErased = "parley_sessions_erased_total"
    case pruneRuns = "parley_prune_runs_total"
    case pruned = "parley_pruned_total"
    case groupCommitBatches = "parley_group_commit_batches_total"
    case groupCommitUnits = "parley_group_commit_units_total"
    case groupCommitWaiting = "parley_group_commit_waiting"
    case sessionReadBatches = "parley_session_read_batches_total"
    case sessionReads = "parley_session_reads_total"
    case liveStreamsOpen = "parley_live_streams_open"
    case liveEventsSent = "parley_live_events_sent_total"
    case liveAgentEvents = "parley_live_agent_events_total"
    case webhookDeliveries = "parley_webhook_deliveries_total"
    case webhookOutboxOldest = "parley_webhook_outbox_oldest_seconds"

    /// The Prometheus metric type (`# TYPE`).
    enum Kind: String, Sendable {
        case counter
        case gauge
        case histogram
    }

    /// The family name, as `/metrics` prints it.
    var name: String { rawValue }

    /// What kind of series it is.
    var kind: Kind {
        switch self {
        case .httpRequestDuration: .histogram
        case .groupCommitWaiting, .liveStreamsOpen, .webhookOutboxOldest: .gauge
        default: .counter
        }
    }

    /// The `# HELP` text: what is counted, by which labels, and what it tells an operator.
    var help: String {
        switch self {
        case .httpRequests: "HTTP requests by route, method and status."
        case .httpRequestDuration: "HTTP request latency by route, in seconds."
        case .gatingSubstitutions:
            "Nodes substituted, dropped or escalated while gating, by core version, component type and outcome."
        case .submitRejections:
            "Answers the server rejected, by rule and client core version. A core whose users keep "
                + "getting rejections its own core should have caught is drifting."
        case .screenCache: "Gated-screen cache lookups by result (hit or miss)."
        case .sessionsStarted: "Sessions started, by flow and pinned version."
        case .sessionSteps:
            "Steps answered in sessions by flow, version, step and outcome (valid, invalid): with the sessions "
                + "started and completed, the funnel that shows where users drop off."
        case .sessionCompletions: "Sessions completed, by flow and pinned version."
        case .sessionExpirations:
            "Sessions expired after their idle TTL, by flow and pinned version (counted by the sweeping process)."
        case .sessionsErased: "Sessions whose answers were erased on request (counted by the erasing process)."
        case .pruneRuns:
            "Scheduled prunes by outcome: pruned (this process held the prune lock) or skipped (another did)."
        case .pruned: "Rows deleted past retention, by table (counted by the pruning process)."
        case .groupCommitBatches: "Group-committed transactions of session writes."
        case .groupCommitUnits: "Session writes committed in those transactions."
        case .groupCommitWaiting: "Session writes waiting for a batch slot."
        case .sessionReadBatches: "Statements that read sessions the snapshot cache did not hold."
        case .sessionReads:
            "Sessions read from the database (snapshot cache misses); reads per statement is what batching saves."
        case .liveStreamsOpen: "Session event streams open in this process."
        case .liveEventsSent: "Snapshot events written to session event streams."
        case .liveAgentEvents: "Agent events (say, goto) applied to sessions, by kind."
        case .webhookDeliveries:
            "Webhook delivery attempts by outcome: delivered, failed (will retry), dead, disabled (410)."
        case .webhookOutboxOldest:
            "Age of the oldest undelivered webhook event, in seconds; alert when it keeps growing."
        }
    }

    /// One exposition line of this family kept outside the registry (a gauge, a count held
    /// elsewhere): `name{labels} value`, `labels` already rendered (`route="…",method="…"`).
    func sample(_ value: some CustomStringConvertible, labels: String = "") -> MetricsRegistry.Sample {
        (self, labels.isEmpty ? "\(rawValue) \(value)" : "\(rawValue){\(labels)} \(value)")
    }
}
