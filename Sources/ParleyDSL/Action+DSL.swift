public import ParleyCore

extension Action {
    /// `{"type": "openUrl", "url": …}` (`https` only, checked by the linter).
    public static func openURL(_ url: String) -> Action { Action(.openURL(url)) }

    /// `{"type": "subscribe", "channel": …}`.
    public static func subscribe(_ channel: String) -> Action { Action(.subscribe(channel: channel)) }

    /// `{"type": "network", "request": …}`, e.g. `.network(.post("orders/reorder", include: ["orderId"]))`.
    public static func network(_ request: RequestSpec) -> Action { Action(.network(request)) }

    /// This action with a `fallback` for cores that lack its type.
    public func orElse(_ fallback: Action) -> Action {
        var copy = self
        copy.fallback = fallback
        return copy
    }
}

extension RequestSpec {
    /// A `GET` of a relative path, including the named fields' answers.
    public static func get(_ path: String, include: [Field] = []) -> RequestSpec {
        RequestSpec(method: "GET", path: path, include: include.map(\.name))
    }

    /// A `POST`.
    public static func post(_ path: String, include: [Field] = []) -> RequestSpec {
        RequestSpec(method: "POST", path: path, include: include.map(\.name))
    }

    /// A `PUT`.
    public static func put(_ path: String, include: [Field] = []) -> RequestSpec {
        RequestSpec(method: "PUT", path: path, include: include.map(\.name))
    }

    /// A `PATCH`.
    public static func patch(_ path: String, include: [Field] = []) -> RequestSpec {
        RequestSpec(method: "PATCH", path: path, include: include.map(\.name))
    }

    /// A `DELETE`.
    public static func delete(_ path: String, include: [Field] = []) -> RequestSpec {
        RequestSpec(method: "DELETE", path: path, include: include.map(\.name))
    }
}
