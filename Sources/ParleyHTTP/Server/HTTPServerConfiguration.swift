import Glibc

/// Everything an `HTTPServer` can be tuned by; every limit is named here with its default
/// (STYLE.md, convention 5).
public struct HTTPServerConfiguration: Sendable {
    /// Address to bind. Default `127.0.0.1`.
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 picks a free one (`HTTPServer.start()` returns it). Default 8080.
    public var port: Int = 8080
    /// Event-loop threads, each with its own epoll and listening socket. Default: online cores.
    public var loopThreads: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Threads that run off-loop responders (those without an inline answer). Sized for
    /// responders that block (a connect to an unreachable database holds one until its
    /// deadline); only about as many as the cores are awake at once while they make progress
    /// (`ResponderThreadPool`). Default 16.
    public var responderThreads: Int = 16
    /// Listen backlog. Default 1024.
    public var backlog: Int = 1024
    /// Open connections across all loops; further ones are closed on accept. Default 10,000.
    public var maxConnections: Int = 10_000
    /// Longest request line (→ 414). Default 8 KiB.
    public var maxRequestLineBytes: Int = 8192
    /// Largest header section, request line excluded (→ 431). Default 16 KiB.
    public var maxHeaderBytes: Int = 16384
    /// Most header fields (→ 431). Default 100.
    public var maxHeaderCount: Int = 100
    /// Largest request body unless a route sets its own (→ 413, checked before reading). Default 1 MiB.
    public var maxBodyBytes: Int = 1 << 20
    /// Longest chunk-size line including extensions (→ 400). Default 4 KiB.
    public var maxChunkLineBytes: Int = 4096
    /// Responses queued for a pipelining client before the server stops parsing its further
    /// requests until they are written; bounds memory against clients that never read. Default 256 KiB.
    public var maxQueuedResponseBytes: Int = 256 * 1024
    /// Time from a request's first byte (or a TLS handshake's start) to its complete head
    /// (→ 408 and close). Bounds slowloris clients. Default 10 s.
    public var headerReadTimeout: Duration = .seconds(10)
    /// Longest silence while a body is being received (→ 408 and close). Default 10 s.
    public var bodyIdleTimeout: Duration = .seconds(10)
    /// Longest silence between requests on a kept-alive connection (→ close). Default 60 s.
    public var keepAliveIdleTimeout: Duration = .seconds(60)
    /// Longest a response may wait for the client to accept more bytes (→ close). Default 30 s.
    public var writeTimeout: Duration = .seconds(30)
    /// After a final error response, how long input is drained before closing, so the client
    /// reads the response instead of a reset. Default 2 s.
    public var closeLingerTimeout: Duration = .seconds(2)
    /// How long a streaming response may stay silent before its heartbeat (an SSE comment line)
    /// is written, so proxies and load balancers do not close it. Default 15 s.
    public var streamHeartbeatInterval: Duration = .seconds(15)
    /// How long `run()` lets in-flight requests finish after SIGTERM/SIGINT. Default 10 s.
    public var shutdownDeadline: Duration = .seconds(10)
    /// Whether each request gets an access-log line (method, path, status, bytes, duration,
    /// peer), written when the logger's level is `info` or lower. Default true.
    public var accessLog: Bool = true
    /// What the access log prints for a request path, so a service can keep capabilities carried
    /// in paths (session ids) out of its logs. Default: the path as received.
    public var accessLogPath: @Sendable (String) -> String = { $0 }
    /// Where access-log lines go, in batches of whole lines. Default: standard error.
    public var accessLogSink: any AccessLogSink = FileDescriptorSink()
    /// Each loop hands its access-log lines to the sink once this many bytes are buffered.
    /// Default 32 KiB.
    public var accessLogBufferBytes: Int = 32 * 1024
    /// The longest a line waits in a loop's buffer before it is written (checked every loop
    /// tick, so up to a tick later). Default 1 s.
    public var accessLogFlushInterval: Duration = .seconds(1)
    /// Whether access-log lines are JSON objects (`--log-format json`: the keys of the service's
    /// JSON log lines plus method, route, status, bytes, duration, peer and request_id) instead
    /// of text. Default false.
    public var accessLogFields: Bool = false
    /// TLS certificate and key; nil serves plain HTTP. Default nil.
    public var tls: TLSConfiguration?

    /// The defaults above, with `host` and `port` set.
    public init(host: String = "127.0.0.1", port: Int = 8080) {
        self.host = host
        self.port = port
    }

    var parserLimits: HTTPParserLimits {
        HTTPParserLimits(
            maxRequestLineBytes: maxRequestLineBytes, maxHeaderBytes: maxHeaderBytes, maxHeaderCount: maxHeaderCount,
            maxChunkLineBytes: maxChunkLineBytes)
    }
}

/// PEM files for serving HTTPS.
public struct TLSConfiguration: Sendable, Hashable {
    /// Path of the PEM certificate chain.
    public var certificatePath: String
    /// Path of the PEM private key.
    public var privateKeyPath: String

    /// Creates a TLS configuration.
    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }
}

extension Duration {
    /// Whole nanoseconds, saturating.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (product, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : product + UInt64(attoseconds / 1_000_000_000)
    }
}
