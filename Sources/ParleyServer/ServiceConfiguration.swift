public import ParleyCore

/// Every setting and limit of the service in one place (STYLE.md, convention 5).
public struct ServiceConfiguration: Sendable {
    /// Channel served when a client names none. Default `production`.
    public var defaultChannel = "production"
    /// The data keys that seal sensitive answers at rest; without a current key, answers to
    /// sensitive fields are refused (never stored in the clear).
    public var dataKeyring = DataKeyring(current: nil)
    /// `Cache-Control: max-age` of gated screens, in seconds. Default 30: a release
    /// reaches every shared cache within that window.
    public var screenMaxAgeSeconds = 30
    /// When set, client endpoints require `Parley-Client-Key` with this value. Default: open.
    public var clientKey: String?
    /// Largest flow document accepted by `POST /v1/flows` and `/v1/flows/lint`. Default 1 MiB.
    public var maxFlowBytes = 1 << 20
    /// Largest bundle accepted by `POST /v1/bundles`. Default 16 MiB.
    public var maxBundleBytes = 16 << 20
    /// Largest body of a step's answers (`/answers`, `/validate`). Default 64 KiB.
    public var maxSubmitBytes = 64 << 10
    /// How long a session may stay idle before it expires (410), in seconds. Default 24 h.
    public var sessionIdleSeconds: Double = 86_400
    /// How often each process sweeps expired sessions, in seconds. Default 60.
    public var sessionSweepSeconds: Double = 60
    /// Sessions expired per sweep statement. Default 500.
    public var sessionSweepBatch = 500
    /// How long an ended (completed or expired) session is kept when its flow version names no
    /// `retention` (README "Retention"). Default 90 days.
    public var defaultRetention = RetentionPeriod.days(90)
    /// How often each process prunes sessions past retention, in seconds (one process at a time
    /// does the work). Default 1 h.
    public var pruneSeconds: Double = 3_600
    /// Sessions deleted per prune transaction. Default 500.
    public var pruneBatch = 500
    /// Session snapshots kept in memory. Default 20,000.
    public var maxCachedSnapshots = 20_000
    /// Bytes of session snapshot bodies kept in memory. Default 16 MiB.
    public var maxCachedSnapshotBytes = 16 << 20
    /// The WebAssembly build of ParleyCore (`deploy/wasm-core`), served at
    /// `/studio/assets/parley-core.wasm` so the studio lints and previews locally and web clients
    /// validate as the user types. Default none: that URL is a 404 and the studio asks the server.
    public var coreModule: [UInt8]?
    /// Longest single answer, in Unicode scalars; longer ones get 400 before any rule
    /// runs, which bounds the cost of matching patterns. Default 10,000.
    public var maxAnswerLength = FlowPreview.defaultMaxAnswerLength
    /// Session event streams (`GET /v1/sessions/{id}/events`) one process holds open; past it,
    /// 503 with `Retry-After`. Default 10,000.
    public var liveMaxStreams = 10_000
    /// Bytes of events queued for one stream whose reader is slow; past it the stream is closed
    /// (the client reconnects with `Last-Event-ID` and gets the current snapshot). Default 256 KiB.
    public var liveStreamQueueBytes = 256 << 10
    /// Longest agent message (`say.text`), in characters (Unicode scalars, as `/openapi.json`'s
    /// `maxLength` counts them). Default 4,000.
    public var maxMessageLength = 4_000
    /// Longest `say.from`, in characters. Default 100.
    public var maxMessageSenderLength = 100
    /// Messages one session may hold; a `say` past it is refused (409 `messages-full`). Default 500.
    public var maxSessionMessages = 500
    /// Largest release request body. Default 4 KiB.
    public var maxSmallBodyBytes = 4 << 10
    /// Page size when a list request names none. Default 50.
    public var defaultPageSize = 50
    /// Largest page a list request may ask for. Default 200.
    public var maxPageSize = 200
    /// Gated screens kept in memory before the cache is emptied and refilled. Default 20,000.
    public var maxCachedScreens = 20_000
    /// Distinct `Parley-Core` header values remembered. Default 1,024.
    public var maxCachedCoreHeaders = 1_024
    /// Flow versions kept decoded in memory. Default 2,000.
    public var maxCachedVersions = 2_000
    /// Longest channel name accepted. Default 100 (the database's limit).
    public var maxChannelLength = 100
    /// Folder of the SQL migrations `/readyz` compares the database with. Default `Migrations`
    /// (relative to the working directory).
    public var migrationsDirectory = "Migrations"
    /// Longest `X-Request-Id` kept from a client; a longer (or unsafe) one is replaced by a
    /// generated id. Default 64 (a UUID is 36, a W3C trace id 32).
    public var maxRequestIdLength = 64
    /// Also deliver webhooks to loopback and private addresses, and plain `http` to those only
    /// (development and tests). Default false: public `https` only.
    public var webhookAllowPrivate = false
    /// First retry delay of a failed delivery, in seconds; each further one doubles (plus up to
    /// 25 % jitter). Default 5.
    public var webhookRetryBaseSeconds: Double = 5
    /// Longest retry delay, in seconds. Default 10 h.
    public var webhookRetryMaxSeconds: Double = 36_000
    /// Attempts before a delivery is dead-lettered. Default 10.
    public var webhookMaxAttempts = 10
    /// How long a claimed delivery stays invisible to other workers, in seconds; after a crash it
    /// is re-delivered once this passes. Must exceed the timeouts. Default 60.
    public var webhookLeaseSeconds: Double = 60
    /// How often each process looks for due deliveries, in seconds. Default 1.
    public var webhookPollSeconds: Double = 1
    /// Deliveries one process sends at once. Default 8.
    public var webhookConcurrency = 8
    /// Connect and per-read/write timeout of a delivery, in seconds. Default 10.
    public var webhookTimeoutSeconds: Double = 10
    /// Most completions in one NDJSON response of the pull API. Default 10,000.
    public var maxNDJSONCompletions = 10_000
    /// Registered webhooks at most. Default 100.
    public var maxWebhooks = 100
    /// PEM file of trusted certificates for https deliveries instead of the system store (tests).
    public var webhookTrustedCertificates: String?
    /// Version reported in `/openapi.json`.
    public var serviceVersion = "1.0.0"

    /// The defaults documented on each property.
    public init() {}
}
