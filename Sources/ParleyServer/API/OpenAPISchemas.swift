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

    private static let string: JSONValue = ["type": "string"]
    private static let integer: JSONValue = ["type": "integer"]
    private static let boolean: JSONValue = ["type": "boolean"]
    private static let anyObject: JSONValue = ["type": "object"]
    private static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    private static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }

    static let all = JSONObject([
        ("Status", object([("status", string)], required: ["status"])),
        (
            "Problem",
            object(
                [
                    ("type", string), ("title", string), ("status", integer), ("detail", string),
                    ("errors", array(anyObject)), ("problems", array(ref("LintProblem"))),
                ], required: ["type", "title", "status"])
        ),
        ("Flow", ["type": "object", "description": "A `parley.flow/1` document (DESIGN.md \"Flow\")."]),
        ("Screen", ["type": "object", "description": "A `parley.screen/1` document (DESIGN.md \"Screen\")."]),
        ("Bundle", ["type": "object", "description": "A `parley.bundle/1` document (DESIGN.md \"Bundle\")."]),
        ("LintProblem", object([("code", string), ("pointer", string), ("message", string)])),
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
        ("FlowVersionList", object([("items", array(ref("FlowVersion"))), ("next", string)])),
        (
            "FlowSummary",
            object([("id", string), ("title", string), ("latestVersion", integer), ("releases", anyObject)])
        ),
        ("FlowList", object([("items", array(ref("FlowSummary"))), ("next", string)])),
        (
            "ReleaseRequest",
            object([("version", integer), ("channel", string), ("percent", integer)], required: ["version"])
        ),
        (
            "Release",
            object([
                ("id", integer), ("flow", string), ("version", integer), ("channel", string), ("releasedBy", string),
                ("releasedAt", string), ("percent", integer), ("halted", boolean),
            ])
        ),
        (
            "ReleaseComparison",
            object([("flow", string), ("release", ref("Release")), ("since", string), ("versions", array(anyObject))])
        ),
        ("ReleaseList", object([("items", array(ref("Release")))])),
        (
            "BundleResult",
            object([("digest", string), ("keyId", string), ("channel", string), ("flows", array(anyObject))])
        ),
        (
            "GatedScreen",
            object([
                ("flow", string), ("version", integer), ("step", string), ("screen", ref("Screen")),
                ("deferred", array(anyObject)), ("report", array(anyObject)), ("upgrade", boolean),
            ])
        ),
        (
            "ValidateRequest",
            object(
                [("version", integer), ("step", string), ("answers", anyObject), ("context", anyObject)],
                required: ["version", "step", "answers"])
        ),
        (
            "ValidationOutcome",
            object(
                [
                    ("valid", boolean), ("errors", array(anyObject)), ("deferred", array(anyObject)),
                    ("next", string),
                ],
                required: ["valid", "errors", "deferred"])
        ),
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
                ("flow", string), ("step", string), ("cores", array(anyObject)), ("outcome", ref("ValidationOutcome")),
            ])
        ),
        ("SessionStart", object([("flow", string), ("channel", string)], required: ["flow"])),
        (
            "SessionAnswers",
            object([("rev", integer), ("step", string), ("answers", anyObject)], required: ["rev", "step", "answers"])
        ),
        ("SessionBack", object([("rev", integer)], required: ["rev"])),
        (
            "SessionSnapshot",
            object(
                [
                    ("session", string), ("flow", string), ("version", integer), ("rev", integer),
                    ("status", ["type": "string", "enum": ["active", "completed", "expired"]]), ("step", string),
                    ("screen", ref("GatedScreen")), ("values", anyObject), ("path", array(string)),
                    ("messages", array(anyObject)), ("expiresAt", string),
                ],
                required: [
                    "session", "flow", "version", "rev", "status", "step", "screen", "values", "path", "messages",
                    "expiresAt",
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
        ("WebhookRequest", object([("url", string), ("events", array(string))], required: ["url"])),
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
    ])
}
