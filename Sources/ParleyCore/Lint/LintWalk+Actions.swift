extension LintWalk {
    /// The methods a `network` request may use (docs/wire-format.md "Actions"); HTTP
    /// methods are case-sensitive (RFC 9110 §9.1), so only these spellings.
    static let networkMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"]

    /// An action and its fallback chain (docs/wire-format.md "Actions").
    mutating func lintAction(_ value: JSONValue, at pointer: JSONPointer, fallbacks: Int) {
        guard let action = object(value, at: pointer, what: "An action") else { return }
        if let type = string(action, "type", at: pointer, why: "; it says what the action does") {
            switch type {
            case "submit":
                break
            case "openUrl":
                if let url = string(action, "url", at: pointer), !Self.isHTTPSURL(url) {
                    report(
                        .openUrlNotHttps, pointer.appending("url"),
                        "openUrl only opens https:// addresses; \(Self.quoted(url)) is not one.")
                }
            case "subscribe":
                if let channel = string(action, "channel", at: pointer), channel.isEmpty {
                    report(.invalidValue, pointer.appending("channel"), "\"channel\" must not be empty.")
                }
            case "network":
                if let request = action["request"] {
                    lintRequest(request, at: pointer.appending("request"))
                } else {
                    report(
                        .missingMember, pointer.appending("request"), "\"request\" is required for a network action.")
                }
            default:
                report(
                    .unknownActionType, pointer.appending("type"),
                    "\(Self.quoted(type)) is not an action type Parley knows; use submit, openUrl, subscribe or network."
                )
            }
        }
        guard let fallback = action["fallback"], !fallback.isNull else { return }
        guard fallbacks < limits.maximumActionFallbacks else {
            report(
                .limitExceeded, pointer.appending("fallback"),
                "Actions fall back more than \(limits.maximumActionFallbacks) times (maximumActionFallbacks).")
            return
        }
        lintAction(fallback, at: pointer.appending("fallback"), fallbacks: fallbacks + 1)
    }

    /// A `network` request: method, relative path, no headers, known fields.
    private mutating func lintRequest(_ value: JSONValue, at pointer: JSONPointer) {
        guard let request = object(value, at: pointer, what: "A network request") else { return }
        if let method = string(request, "method", at: pointer),
            !Self.networkMethods.contains(where: { $0.isScalarEqual(to: method) })
        {
            report(
                .invalidNetworkMethod, pointer.appending("method"),
                "\(Self.quoted(method)) is not allowed; use GET, POST, PUT, PATCH or DELETE.")
        }
        if let path = string(request, "path", at: pointer), let problem = NetworkPath.problem(in: path) {
            report(.invalidNetworkPath, pointer.appending("path"), problem)
        }
        if request["headers"] != nil {
            report(
                .networkHeadersNotAllowed, pointer.appending("headers"),
                "Network requests cannot set headers; the client adds authentication itself.")
        }
        let includePointer = pointer.appending("include")
        guard let include = array(request, "include", at: pointer, required: false) else { return }
        within(
            include.count, limits.maximumValuesPerList, name: "maximumValuesPerList", at: includePointer, what: "Fields"
        )
        for (index, element) in include.enumerated() {
            guard case .string(let field) = element else {
                report(
                    .wrongType, includePointer.appending(index),
                    "Each entry must be a fieldId string, found \(element.kindDescription).")
                continue
            }
            reference(field, at: includePointer.appending(index), what: "\"include\"", readsPath: false)
        }
    }

    /// `https://` (scheme case-insensitive, RFC 3986 §3.1) followed by a host,
    /// with no whitespace or control characters anywhere.
    static func isHTTPSURL(_ url: String) -> Bool {
        let scalars = Array(url.unicodeScalars)
        guard scalars.count > 8, !scalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            return false
        }
        let scheme = String(String.UnicodeScalarView(scalars.prefix(8))).lowercased()
        guard scheme == "https://" else { return false }
        let host = scalars[8]
        return host != "/" && host != "?" && host != "#" && host != "@" && host != ":"
    }
}
