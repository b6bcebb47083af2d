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
    /// Answers: `fieldId → string` (`null` means absent).
    private static let answers: JSONValue = ["type": "object", "additionalProperties": ["type": ["string", "null"]]]
    private static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    private static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/\(name)")] }

    /// Every component; the wire documents' definitions are shared with `/schemas/*.json`.
    static let all = JSONObject(
        [
            ("Status", object([("status", string)], required: ["status"])),
            ("JSONSchema", ["type": "object", "description": "A JSON Schema 2020-12 document."]),
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
                object([("version", integer), ("channel", string), ("percent", integer)], required: ["version"])
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
                "BundleResult",
                object([("digest", string), ("keyId", string), ("channel", string), ("flows", array(anyObject))])
            ),
            (
                "ValidateRequest",
                object(
                    [("version", integer), ("step", string), ("answers", answers), ("context", answers)],
                    required: ["version", "step", "answers"])
            ),
            (
                "ValidationOutcome",
                object(
                    [
                        ("valid", boolean), ("errors", array(ref("ValidationError"))),
                        ("deferred", array(ref("DeferredRule"))),
                        ("next", string),
                    ],
                    required: ["valid", "errors", "deferred"])
            ),
            ("SessionStart", object([("flow", string), ("channel", string)], required: ["flow"])),
            (
                "SessionAnswers",
                object(
                    [("rev", integer), ("step", string), ("answers", answers)], required: ["rev", "step", "answers"])
            ),
            ("SessionBack", object([("rev", integer)], required: ["rev"])),
        ] + WireSchemaDefinitions(base: "#/components/schemas/").all)
}
