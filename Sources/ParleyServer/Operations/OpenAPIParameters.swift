import ParleyCore

/// The parameters of each operation in `/openapi.json`: path, query and header, each with the
/// exact constraint its handler enforces, so a generated request that fits the document is
/// accepted and one that does not is refused (schemathesis checks both ways, issue 14).
enum OpenAPIParameters {
    /// A positive integer as ``RequestInput/positiveInteger(_:)`` reads it.
    static let positiveInteger: JSONValue = [
        "type": "string", "pattern": .string("^[1-9][0-9]{0,\(RequestInput.maximumIntegerDigits - 1)}$"),
    ]

    /// A channel name as ``ServiceConfiguration/checkedChannel(_:)`` reads it: printable, no spaces.
    static let channel: JSONValue = [
        "type": "string", "minLength": 1, "maxLength": .number(JSONNumber(ServiceConfiguration().maxChannelLength)),
        "pattern": "^[^\\u0000-\\u0020\\u007F]*$",
    ]

    /// A `Parley-Core` value as `CoreVersion(parsing:)` reads it.
    static let coreVersion: JSONValue = [
        "type": "string", "example": "1.2.0", "maxLength": .number(JSONNumber(CoreVersion.maximumLength)),
        "pattern": .string(OpenAPIDocument.coreVersionPattern),
    ]

    /// Visible ASCII, 1 to `length` characters (`Parley-Subject`, `Idempotency-Key`).
    private static func visibleASCII(_ length: Int) -> JSONValue {
        ["type": "string", "pattern": .string("^[!-~]{1,\(length)}$")]
    }

    /// Every parameter of `route`, in the order path, header, query.
    static func all(for route: ServiceRoute) -> [JSONValue] {
        var parameters = route.pathParameters.map { name in
            parameter(name, in: "path", required: true, schema: pathSchema(name, route: route))
        }
        for (name, required, description, schema) in headers(route.operation) {
            parameters.append(parameter(name, in: "header", required: required, schema: schema, description))
        }
        for (name, description, schema) in query(route.operation) {
            parameters.append(parameter(name, in: "query", required: false, schema: schema, description))
        }
        return parameters
    }

    private static func parameter(
        _ name: String, in location: String, required: Bool, schema: JSONValue, _ description: String? = nil
    ) -> JSONValue {
        var object = JSONObject()
        object["name"] = .string(name)
        object["in"] = .string(location)
        object["required"] = .bool(required)
        if let description { object["description"] = .string(description) }
        object["schema"] = schema
        return .object(object)
    }

    private static func pathSchema(_ name: String, route: ServiceRoute) -> JSONValue {
        switch name {
        case "n", "r", "delivery": return positiveInteger
        case "name": return ["type": "string", "enum": .array(WireSchemas.roots.map { .string("\($0.name).json") })]
        case "view":
            return ["type": "string", "enum": .array(OperationsHandlers.studioViews.sorted().map(JSONValue.string))]
        case "flow" where route.path.hasPrefix("/studio/"):
            // The studio's pages are one app shell that reads its own URL: any flow id gets the page.
            return ["type": "string", "minLength": 1]
        case "id" where route.path.hasPrefix("/v1/sessions/"):
            // Session ids are capabilities: a malformed one is simply not found (404), never a 400.
            return ["type": "string", "minLength": 1]
        default: return OpenAPISchemas.identifier
        }
    }

    private static func headers(_ operation: ServiceOperation) -> [(String, Bool, String, JSONValue)] {
        let core = (
            "Parley-Core", false, "Semantic version of the client core; missing means the oldest supported core.",
            coreVersion
        )
        switch operation {
        case .getStartScreen, .getStepScreen:
            return [
                core,
                (
                    "Parley-Subject", false, "Stable key that buckets a sessionless client into a partial rollout.",
                    visibleASCII(200)
                ),
            ]
        case .startSession: return [core]
        case .answerSession, .backSession:
            return [
                (
                    "Idempotency-Key", false, "Retries with the same key and body replay the stored response.",
                    visibleASCII(255)
                )
            ]
        case .createFlowVersion:
            return [
                (
                    "If-Match", false, "`\"N\"`: store only if version N is the latest (412 otherwise); `*`: any.",
                    ["type": "string", "pattern": "^(\\*|\"[1-9][0-9]{0,17}\")$"]
                )
            ]
        case .publishBundle:
            return [
                (
                    "Parley-Signature", true, "`keyId=\"…\", signature=\"<base64 Ed25519>\"` over the bundle's bytes.",
                    ["type": "string", "pattern": "^keyId=\"[^\"]{1,200}\", signature=\"[A-Za-z0-9+/]{86}==\"$"]
                )
            ]
        default: return []
        }
    }

    private static func query(_ operation: ServiceOperation) -> [(String, String, JSONValue)] {
        let limit = (
            "limit", "Page size (default \(ServiceConfiguration().defaultPageSize)).",
            ["type": "integer", "minimum": 1, "maximum": .number(JSONNumber(ServiceConfiguration().maxPageSize))]
                as JSONValue
        )
        func cursor(_ name: String, _ schema: JSONValue) -> (String, String, JSONValue) {
            (name, "The `next` cursor of the previous page.", schema)
        }
        switch operation {
        case .getStartScreen, .getStepScreen:
            return [("channel", "The channel to serve (default: the server's default channel).", channel)]
        case .getFlowVersionSamples:
            return [
                ("step", "Only this step (default: every step).", OpenAPISchemas.identifier),
                ("core", "A client core version: samples aimed at rules it defers are marked `deferred`.", coreVersion),
                (
                    "seed", "Seed (default 0); the same seed gives the same bytes.",
                    [
                        "type": "string",
                        "pattern": .string("^(0|[1-9][0-9]{0,\(FlowHandlers.maximumSampleSeedDigits - 1)})$"),
                    ]
                ),
            ]
        case .getFlowFunnel:
            let time: JSONValue = ["type": "string", "format": "date-time", "example": "2026-11-25T08:00:00Z"]
            return [
                ("version", "Only sessions pinned to this version (default: every version).", positiveInteger),
                ("core", "Only sessions of this client core version.", coreVersion),
                (
                    "locale", "Only sessions in this locale (BCP 47).",
                    ["type": "string", "maxLength": 64, "pattern": "^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$"]
                ),
                ("from", "Only sessions started at or after this RFC 3339 date or date-time.", time),
                ("to", "Only sessions started before this RFC 3339 date or date-time.", time),
            ]
        case .listFlows: return [limit, cursor("after", OpenAPISchemas.identifier)]
        case .listFlowVersions, .listDeliveries: return [limit, cursor("before", positiveInteger)]
        case .listReleases: return [limit]
        case .listCompletions:
            return [
                (
                    "limit",
                    "Page size (default \(ServiceConfiguration().defaultPageSize); NDJSON: up to "
                        + "\(ServiceConfiguration().maxNDJSONCompletions), default all of them).",
                    [
                        "type": "integer", "minimum": 1,
                        "maximum": .number(JSONNumber(ServiceConfiguration().maxPageSize)),
                    ]
                ),
                cursor("after", ["type": "string", "pattern": "^(0|[1-9][0-9]{0,17})$"]),
            ]
        default: return []
        }
    }
}
