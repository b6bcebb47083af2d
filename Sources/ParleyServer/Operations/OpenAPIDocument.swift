public import ParleyCore

/// `GET /openapi.json`: an OpenAPI 3.1 description generated from
/// ``ServiceRoute/all``, the same table the router is built from.
public enum OpenAPIDocument {
    /// The document as canonical JSON bytes.
    public static func bytes(version: String) -> [UInt8] {
        CanonicalJSON.encode(json(version: version))
    }

    /// The document as a JSON value.
    public static func json(version: String) -> JSONValue {
        var paths = JSONObject()
        for route in ServiceRoute.all {
            var item = paths[route.path]?.objectValue ?? JSONObject()
            item[route.method.lowercased()] = operation(route)
            paths[route.path] = .object(item)
        }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Parley",
                "version": .string(version),
                "description": "Server-driven UI flows: author, release, serve gated screens, re-validate answers.",
            ],
            "paths": .object(paths),
            "components": ["schemas": .object(OpenAPISchemas.all), "securitySchemes": securitySchemes],
        ]
    }

    private static let securitySchemes: JSONValue = [
        "bearer": ["type": "http", "scheme": "bearer", "description": "API token from `parley token create`."],
        "clientKey": [
            "type": "apiKey", "in": "header", "name": "Parley-Client-Key",
            "description": "Only when the server is configured with a client key.",
        ],
    ]

    /// Semantic versions as `CoreVersion(parsing:)` reads them (MAJOR.MINOR[.PATCH], at most 9 digits each;
    /// a numeric pre-release identifier has no leading zero, SemVer 2.0.0 §9).
    static let coreVersionPattern =
        "^(0|[1-9][0-9]{0,8})[.](0|[1-9][0-9]{0,8})([.](0|[1-9][0-9]{0,8}))?"
        + "(-\(preReleaseIdentifier)([.]\(preReleaseIdentifier))*)?([+][0-9A-Za-z-]+([.][0-9A-Za-z-]+)*)?$"
    private static let preReleaseIdentifier = "(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"

    private static func operation(_ route: ServiceRoute) -> JSONValue {
        var object = JSONObject()
        object["operationId"] = .string(route.operationId)
        object["summary"] = .string(route.summary)
        switch route.access {
        case .open: object["security"] = []
        case .client: object["security"] = [[:], ["clientKey": []]]
        case .anyToken: object["security"] = [["bearer": []]]
        case .scope(let scope):
            object["security"] = [["bearer": []]]
            object["x-parley-scope"] = .string(scope.rawValue)
        }
        let parameters = OpenAPIParameters.all(for: route)
        if !parameters.isEmpty { object["parameters"] = .array(parameters) }
        if let schema = route.requestSchema {
            var media = JSONObject([("schema", ["$ref": .string("#/components/schemas/\(schema)")])])
            if let example = OpenAPIExamples.requestBody(route.operation) { media["example"] = example }
            object["requestBody"] = ["required": true, "content": ["application/json": .object(media)]]
        }
        var responses = JSONObject()
        for response in route.responses {
            var entry: JSONObject = JSONObject([("description", .string(response.description))])
            if let schema = response.schema {
                entry["content"] = [
                    "application/json": ["schema": ["$ref": .string("#/components/schemas/\(schema)")]]
                ]
            }
            responses[String(response.status)] = .object(entry)
        }
        for status in route.problems {
            responses[String(status)] = [
                "description": "problem",
                "content": ["application/problem+json": ["schema": ["$ref": "#/components/schemas/Problem"]]],
            ]
        }
        object["responses"] = .object(responses)
        return .object(object)
    }
}
