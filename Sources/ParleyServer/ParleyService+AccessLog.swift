extension ParleyService {
    /// The path the access log prints: a session id (a bearer capability, DESIGN.md "Sessions")
    /// is replaced by `{id}`, so `/v1/sessions/abc/answers` logs as `/v1/sessions/{id}/answers`.
    public static let accessLogPath: @Sendable (String) -> String = { path in
        let prefix = "/v1/sessions/"
        guard path.hasPrefix(prefix) else { return path }
        let rest = path.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return rest.isEmpty ? path : prefix + "{id}" }
        return prefix + "{id}" + rest[slash...]
    }
}
