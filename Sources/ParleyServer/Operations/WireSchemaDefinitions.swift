import ParleyCore

/// The definitions behind the wire format's JSON Schemas (2020-12), written
/// once and rendered twice: as `$defs` of the documents at `/schemas/*.json`
/// and as `components/schemas` of `/openapi.json`, so the two cannot drift.
///
/// They describe shape (DESIGN.md "Wire format"); lint stays the authority on
/// meaning. Decoding is tolerant, so objects allow members they don't name,
/// unknown component, action and rule types are allowed, and strings a flow
/// may translate (DESIGN.md "Localization") may be `{locale: text}` objects.
struct WireSchemaDefinitions {
    /// Prefix of every reference: `#/$defs/` or `#/components/schemas/`.
    let base: String

    private func ref(_ name: String) -> JSONValue { ["$ref": .string(base + name)] }
    private static let string: JSONValue = ["type": "string"]
    private static let strings: JSONValue = ["type": "array", "items": ["type": "string"]]
    private static let integer: JSONValue = ["type": "integer"]
    private static func array(_ items: JSONValue) -> JSONValue { ["type": "array", "items": items] }
    private static func object(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        var schema = JSONObject([("type", "object"), ("properties", .object(JSONObject(properties)))])
        if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
        return .object(schema)
    }
    /// An object of a flow, screen or bundle document: the decoder reads an optional member that is
    /// `null` as absent (``JSONReader``), so every member not required may also be `null`.
    private static func member(_ properties: [(String, JSONValue)], required: [String] = []) -> JSONValue {
        object(
            properties.map { name, schema in
                required.contains(name) ? (name, schema) : (name, ["anyOf": [schema, ["type": "null"]]])
            }, required: required)
    }
    private static func documentSchema(_ kind: String) -> JSONValue {
        ["type": "string", "pattern": .string("^parley\\.\(kind)/1(\\.(0|[1-9][0-9]*))?$")]
    }

    /// Every definition, by name.
    var all: [(String, JSONValue)] {
        [
            ("Text", ["anyOf": [Self.string, ["type": "object", "additionalProperties": Self.string]]]),
            ("Predicate", predicate), ("Rule", rule), ("Action", action), ("Node", node),
            ("ScreenBody", screenBody), ("Screen", screen), ("Step", step), ("Flow", flow), ("Bundle", bundle),
            (
                "DeferredRule",
                Self.object([("field", Self.string), ("rule", Self.string)], required: ["field", "rule"])
            ),
            (
                "ValidationError",
                Self.object(
                    [("field", Self.string), ("rule", Self.string), ("message", Self.string)],
                    required: ["field", "rule", "message"])
            ),
            (
                "GatingReportEntry",
                Self.object(
                    [
                        ("nodeId", Self.string), ("pointer", Self.string), ("action", Self.string),
                        ("reason", Self.string),
                    ],
                    required: ["nodeId", "pointer", "action", "reason"])
            ),
            ("GatedScreen", gatedScreen), ("SessionSnapshot", snapshot), ("Problem", problem),
            (
                "LintProblem",
                Self.object(
                    [("code", Self.string), ("pointer", Self.string), ("message", Self.string)],
                    required: ["code", "pointer", "message"])
            ),
        ]
    }

    /// DESIGN.md "Flow": exactly one operator per predicate.
    private var predicate: JSONValue {
        let field: (String, JSONValue) = ("field", Self.string)
        return [
            "oneOf": [
                Self.member([field, ("equals", Self.string)], required: ["field", "equals"]),
                Self.member([field, ("in", Self.strings)], required: ["field", "in"]),
                Self.member([field, ("present", ["type": "boolean"])], required: ["field", "present"]),
                Self.member([("all", Self.array(ref("Predicate")))], required: ["all"]),
                Self.member([("any", Self.array(ref("Predicate")))], required: ["any"]),
                Self.member([("not", ref("Predicate"))], required: ["not"]),
            ]
        ]
    }

    /// DESIGN.md "Rule interpreter": each known kind's parameters; other kinds pass through. Written as
    /// `anyOf` one branch per kind (plus "any other kind") rather than `if`/`then`: the same set of
    /// documents, in a form request generators such as schemathesis can draw from.
    private var rule: JSONValue {
        // Numeric parameters may also be written as strings of the number grammar (JSONReader.number).
        let grammar = "^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][+-]?[0-9]+)?$"
        let count: JSONValue = [
            "anyOf": [["type": "integer", "minimum": 0], ["type": "string", "pattern": "^(0|[1-9][0-9]*)([.]0+)?$"]]
        ]
        let number: JSONValue = ["anyOf": [["type": "number"], ["type": "string", "pattern": .string(grammar)]]]
        let positive: JSONValue = [
            "anyOf": [
                ["type": "number", "exclusiveMinimum": 0],
                ["type": "string", "pattern": .string("^" + grammar.dropFirst(3))],
            ]
        ]
        let date: JSONValue = ["type": "string", "format": "date"]
        let kinds: [([String], [(String, JSONValue)], [String])] = [
            (["minLength", "maxLength"], [("value", count)], ["value"]),
            (["pattern"], [("value", Self.string)], ["value"]),
            (["oneOf"], [("values", Self.strings)], ["values"]),
            (["equalsField"], [("field", Self.string)], ["field"]),
            (["requiredIf"], [("when", ref("Predicate"))], ["when"]),
            (["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"], [("value", number)], ["value"]),
            (["multipleOf"], [("value", positive)], ["value"]),
            (["date"], [("min", date), ("max", date)], []),
        ]
        var branches: [JSONValue] = kinds.map { names, parameters, required in
            Self.member([("rule", ["enum": .array(names.map(JSONValue.string))])] + parameters, required: required)
        }
        let known = kinds.flatMap(\.0).map(JSONValue.string)
        branches.append(Self.member([("rule", ["type": "string", "not": ["enum": .array(known)]])]))
        return [
            "type": "object", "required": ["rule"],
            "properties": ["rule": Self.string, "message": ["anyOf": [ref("Text"), ["type": "null"]]]],
            "anyOf": .array(branches),
        ]
    }

    /// DESIGN.md "Actions".
    private var action: JSONValue {
        let request = Self.member(
            [
                ("method", ["enum": ["GET", "POST", "PUT", "PATCH", "DELETE"]]), ("path", Self.string),
                ("include", Self.strings),
            ], required: ["method", "path"])
        return [
            "type": "object", "required": ["type"],
            "properties": [
                "type": Self.string, "url": ["type": ["string", "null"]], "channel": ["type": ["string", "null"]],
                "request": ["anyOf": [request, ["type": "null"]]],
                "fallback": ["anyOf": [ref("Action"), ["type": "null"]]],
            ],
        ]
    }

    /// DESIGN.md "Screen": every node has a type and an id; inputs carry `fieldId` and `validation`.
    private var node: JSONValue {
        let validation: JSONValue = ["anyOf": [Self.array(ref("Rule")), ["type": "object"], ["type": "null"]]]
        let properties = Self.member([
            ("fieldId", Self.string), ("validation", validation), ("action", ref("Action")),
            ("options", Self.array(ref("Text"))), ("text", ref("Text")), ("label", ref("Text")),
            ("title", ref("Text")), ("placeholder", ref("Text")),
        ])
        return Self.member(
            [
                ("type", Self.string), ("id", Self.string), ("properties", ["anyOf": [properties, ["type": "null"]]]),
                ("children", ["anyOf": [Self.array(ref("Node")), ["type": "null"]]]),
                ("fallback", ["anyOf": [ref("Node"), ["type": "null"]]]),
            ], required: ["type", "id"])
    }

    private var screenBody: JSONValue {
        Self.member(
            [
                ("schema", Self.documentSchema("screen")), ("id", Self.string), ("title", ref("Text")),
                ("root", ref("Node")),
            ],
            required: ["id", "root"])
    }

    /// A top-level `parley.screen/1` document: `schema` is required there.
    private var screen: JSONValue { ["allOf": [ref("ScreenBody")], "required": ["schema"]] }

    private var step: JSONValue {
        let transition = Self.member([("when", ref("Predicate")), ("goto", Self.string)], required: ["goto"])
        return Self.member(
            [("id", Self.string), ("screen", ref("ScreenBody")), ("next", Self.array(transition))],
            required: ["id", "screen"])
    }

    private var flow: JSONValue {
        Self.member(
            [
                ("schema", Self.documentSchema("flow")), ("id", Self.string), ("title", ref("Text")),
                ("start", Self.string), ("steps", Self.array(ref("Step"))), ("locales", Self.strings),
                ("upgrade", ["anyOf": [ref("ScreenBody"), ["type": "null"]]]),
                // README "Erasure and retention"; lint also refuses a zero or over-long duration.
                (
                    "retention",
                    [
                        "type": "string",
                        "pattern": "^P([0-9]+Y)?([0-9]+M)?([0-9]+W)?([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+S)?)?$",
                    ]
                ),
            ], required: ["schema", "id", "start", "steps"])
    }

    private var bundle: JSONValue {
        Self.member(
            [
                ("schema", Self.documentSchema("bundle")), ("channel", Self.string),
                ("source", ["type": ["object", "null"]]), ("flows", Self.array(ref("Flow"))),
            ], required: ["schema", "channel", "flows"])
    }

    /// `GET /v1/screens/{flow}[/{step}]`: a step gated for the asking core.
    private var gatedScreen: JSONValue {
        Self.object(
            [
                ("flow", Self.string), ("version", ["type": "integer", "minimum": 1]), ("step", Self.string),
                ("served", ["enum": ["step", "upgrade", "builtInUpgrade"]]), ("screen", ref("ScreenBody")),
                ("report", Self.array(ref("GatingReportEntry"))), ("deferred", Self.array(ref("DeferredRule"))),
            ], required: ["flow", "version", "step", "served", "screen", "report", "deferred"])
    }

    /// DESIGN.md "Sessions": the one shape every session response carries.
    private var snapshot: JSONValue {
        let message = Self.object(
            [("rev", Self.integer), ("from", Self.string), ("text", Self.string), ("at", Self.string)],
            required: ["rev", "text"])
        return Self.object(
            [
                ("session", Self.string), ("flow", Self.string), ("version", ["type": "integer", "minimum": 1]),
                ("rev", ["type": "integer", "minimum": 1]),
                ("status", ["enum": ["active", "completed", "expired", "erased"]]),
                ("step", Self.string), ("screen", ref("GatedScreen")),
                ("values", ["type": "object", "additionalProperties": Self.string]), ("path", Self.strings),
                ("messages", Self.array(message)), ("expiresAt", ["type": "string", "format": "date-time"]),
            ],
            required: [
                "session", "flow", "version", "rev", "status", "step", "screen", "values", "path", "messages",
                "expiresAt",
            ])
    }

    /// RFC 9457 problem details, with Parley's extension members.
    private var problem: JSONValue {
        Self.object(
            [
                ("type", Self.string), ("title", Self.string),
                ("status", ["type": "integer", "minimum": 400, "maximum": 599]),
                ("detail", Self.string), ("instance", Self.string), ("errors", Self.array(ref("ValidationError"))),
                ("deferred", Self.array(ref("DeferredRule"))), ("problems", Self.array(ref("LintProblem"))),
                ("snapshot", ref("SessionSnapshot")),
            ], required: ["type", "title", "status"])
    }
}
