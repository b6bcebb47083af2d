import ParleyCore

/// The `components/schemas` of the OpenAPI document. Wire documents (flows,
/// screens, bundles) are described loosely and point at DESIGN.md, whose
/// contract the server enforces with its linter.
enum OpenAPISchemas {
    private static func object(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        var schema = JSONObject()
        schema["type"] = "object"
        schema["properties"] = .object(JSONObject(properties))
        if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
        return .object(schema)
    }

    /// A request body: members it does not name are ignored by the server, but documenting them as refused keeps
    /// generated requests to what the handlers read (and no U+0000, which no body may carry).
    private static func request(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        guard case .object(var schema) = object(properties, required: required) else { return anyObject }
        schema["additionalProperties"] = false
        return .object(schema)
    }

    private static let string: JSONValue = ["type": "string"]
    private static let integer: JSONValue = ["type": "integer"]
    private static let boolean: JSONValue = ["type": "boolean"]
    private static let anyObject: JSONValue = ["type": "object"]
    /// Answers: `fieldId → string` (`null` means absent), each at most `maxAnswerLength` scalars.
    private static let answers: JSONValue = [
        "type": "object", "propertyNames": ["pattern": "^[^\\u0000]*$"],
        "additionalProperties": [
            "type": ["string", "null"], "pattern": "^[^\\u0000]*$",
            "maxLength": .number(JSONNumber(ServiceConfiguration().maxAnswerLength)),
        ],
    ]
    /// A positive integer (`rev`, `version`).
    private static let positive: JSONValue = ["type": "integer", "minimum": 1, "maximum": 999_999_999_999]
    /// An id the handlers accept (``RequestInput/isIdentifier(_:)``): 1 to 200 characters (Unicode scalars, what
    /// JSON Schema's `maxLength` counts) without U+0000.
    static let identifier: JSONValue = [
        "type": "string", "minLength": 1, "maxLength": .number(JSONNumber(RequestInput.maximumIdentifierLength)),
        "pattern": "^[^\\u0000]*$",
    ]
    private static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    /// `schema` or `null`, which the handlers read as absent.
    private static func nullable(_ schema: JSONValue) -> JSONValue { ["anyOf": [schema, ["type": "null"]]] }
    private static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }

    /// `POST /v1/sessions/{id}/events` (``AgentAction``): exactly one of `say` and `goto`, and an optional `rev`.
    private static var sessionEvent: JSONValue {
        let configuration = ServiceConfiguration()
        func text(_ longest: Int) -> JSONValue {
            ["type": "string", "minLength": 1, "maxLength": .number(JSONNumber(longest))]
        }
        let say = request(
            [
                ("text", text(configuration.maxMessageLength)),
                ("from", ["anyOf": [text(configuration.maxMessageSenderLength), ["type": "null"]]]),
            ], required: ["text"])
        let rev: JSONValue = ["anyOf": [positive, ["type": "null"]]]
        return [
            "oneOf": [
                request([("say", say), ("rev", rev)], required: ["say"]),
                request([("goto", identifier), ("rev", rev)], required: ["goto"]),
            ]
        ]
    }

    /// Every component; the wire documents' definitions are shared with `/schemas/*.json`.
    static let all = JSONObject(
        [
            ("Status", object([("status", string)], required: ["status"])),
            ("JSONSchema", ["type": "object", "description": "A JSON Schema 2020-12 document."]),
            (
                "OpenAPI",
                object(
                    [("openapi", ["type": "string", "pattern": "^3[.]1[.]"]), ("paths", anyObject)],
                    required: ["openapi", "info", "paths"])
            ),
            (
                "FlowDraft",
                [
                    "description":
                        "A flow document in any state, even not an object (see Flow): lint reports its problems."
                ]
            ),
            (
                "LintReport",
                object([("valid", boolean), ("problems", array(ref("LintProblem"))), ("servability", anyObject)])
            ),
            (
                "FlowVersion",
                object([
                    ("flow", string), ("version", integer), ("contentHash", string), ("author", string),
                    ("createdAt", string), ("content", ref("Flow")),
                ])
            ),
            (
                "Samples",
                object([
                    ("schema", string), ("flow", string), ("version", integer), ("seed", integer), ("core", string),
                    ("steps", array(anyObject)),
                ])
            ),
            ("FlowVersionList", object([("items", array(ref("FlowVersion"))), ("next", string)])),
            (
                "FlowSummary",
                object([("id", string), ("title", string), ("latestVersion", integer), ("releases", anyObject)])
            ),
            ("FlowList", object([("items", array(ref("FlowSummary"))), ("next", string)])),
            (
                "ReleaseRequest",
                request(
                    [
                        ("version", positive), ("channel", nullable(OpenAPIParameters.channel)),
                        ("percent", ["type": ["integer", "null"], "minimum": 1, "maximum": 100]),
                    ], required: ["version"])
            ),
            (
                "Release",
                object([
                    ("id", integer), ("flow", string), ("version", integer), ("channel", string),
                    ("releasedBy", string),
                    ("releasedAt", string), ("percent", integer), ("halted", boolean),
                ])
            ),
            (
                "ReleaseComparison",
                object([
                    ("flow", string), ("release", ref("Release")), ("since", string), ("versions", array(anyObject)),
                ])
            ),
            ("ReleaseList", object([("items", array(ref("Release")))])),
            (
                "Funnel",
                object([
                    ("flow", string), ("filters", anyObject), ("started", integer), ("completed", integer),
                    ("expired", integer), ("steps", array(ref("FunnelStep"))),
                ])
            ),
            (
                "FunnelStep",
                object([
                    ("step", string), ("reachable", integer), ("reached", integer), ("passed", integer),
                    ("rejected", integer), ("dropOff", ["type": ["number", "null"]]),
                    ("medianSeconds", ["type": ["number", "null"]]), ("rejections", array(anyObject)),
                ])
            ),
            (
                "Capabilities",
                object([
                    ("cores", array(string)), ("components", array(anyObject)), ("actions", array(anyObject)),
                    ("rules", array(anyObject)), ("expressions", array(anyObject)),
                ])
            ),
            (
                "BundleResult",
                object([("digest", string), ("keyId", string), ("channel", string), ("flows", array(anyObject))])
            ),
            (
                "ValidateRequest",
                request(
                    [("version", positive), ("step", identifier), ("answers", answers), ("context", answers)],
                    required: ["version", "step", "answers"])
            ),
            (
                "ValidationOutcome",
                object(
                    [
                        ("valid", boolean), ("errors", array(ref("ValidationError"))),
                        ("deferred", array(ref("DeferredRule"))),
                        ("next", string), ("cleared", array(string)),
                    ],
                    required: ["valid", "errors", "deferred"])
            ),
            (
                // DESIGN.md "Expressions": the answer response is the snapshot plus the fields cleared.
                "AnswerResult",
                ["allOf": [ref("SessionSnapshot")], "required": ["cleared"], "properties": ["cleared": array(string)]]
            ),
            (
                "StepEvaluation",
                object(
                    [
                        ("visible", ["type": "object", "additionalProperties": boolean]),
                        ("hidden", array(string)), ("valid", boolean), ("errors", array(ref("ValidationError"))),
                        ("deferred", array(ref("DeferredRule"))), ("next", ["type": ["string", "null"]]),
                        ("computed", ["type": "object", "additionalProperties": ["type": ["string", "null"]]]),
                        ("texts", ["type": "object", "additionalProperties": string]),
                        ("cleared", array(string)),
                    ], required: ["visible", "hidden", "computed", "texts", "cleared", "valid"])
            ),
            (
                "SessionStart",
                request([("flow", identifier), ("channel", nullable(OpenAPIParameters.channel))], required: ["flow"])
            ),
            (
                "SessionAnswers",
                request(
                    [("rev", positive), ("step", identifier), ("answers", answers)],
                    required: ["rev", "step", "answers"])
            ),
            ("SessionBack", request([("rev", positive)], required: ["rev"])),
            ("SessionEvent", sessionEvent),
            (
                "PreviewRequest",
                object(
                    [
                        ("flow", ref("Flow")), ("step", string), ("core", string), ("locale", string),
                        ("answers", anyObject), ("context", anyObject),
                    ], required: ["flow"])
            ),
            (
                "Preview",
                object([
                    ("flow", string), ("step", string), ("cores", array(anyObject)),
                    ("outcome", ref("ValidationOutcome")), ("evaluation", ref("StepEvaluation")),
                ])
            ),
            (
                "Completion",
                object([
                    ("id", integer), ("flow", string), ("version", integer), ("core", string), ("path", array(string)),
                    ("answers", anyObject), ("completedAt", string),
                ])
            ),
            ("CompletionList", object([("items", array(ref("Completion"))), ("next", string)])),
            (
                "WebhookRequest",
                request(
                    [
                        ("url", ["type": "string", "minLength": 1, "maxLength": 2000, "pattern": "^[!-~]*$"]),
                        (
                            "events",
                            [
                                "type": ["array", "null"], "minItems": 1,
                                "maxItems": .number(JSONNumber(DeliveryHandlers.webhookEvents.count)),
                                "items": ["enum": .array(DeliveryHandlers.webhookEvents.map(JSONValue.string))],
                            ]
                        ),
                    ], required: ["url"])
            ),
            (
                "Webhook",
                object([
                    ("id", string), ("url", string), ("events", array(string)), ("enabled", boolean),
                    ("disabledReason", string), ("createdAt", string), ("createdBy", string),
                ])
            ),
            (
                "WebhookCreated",
                object([("webhook", ref("Webhook")), ("secret", string)], required: ["webhook", "secret"])
            ),
            ("WebhookList", object([("items", array(ref("Webhook")))])),
            (
                "Delivery",
                object([
                    ("id", string), ("messageId", string), ("event", string),
                    ("state", ["type": "string", "enum": ["pending", "delivered", "dead"]]), ("attempts", integer),
                    ("lastStatus", integer), ("lastError", string), ("nextAttemptAt", string), ("createdAt", string),
                    ("deliveredAt", string),
                ])
            ),
            ("DeliveryList", object([("items", array(ref("Delivery"))), ("next", string)])),
        ] + WireSchemaDefinitions(base: "#/components/schemas/").all)
}
