import ParleyCore

/// Request bodies `/openapi.json` shows as examples: real documents the server accepts, so a
/// reader (and schemathesis' examples phase) sees a request that succeeds where a schema alone
/// cannot say what lints (issue 14).
enum OpenAPIExamples {
    /// A one-step flow every supported core can render: a required text field and a submit button.
    static let flow: JSONValue = [
        "schema": "parley.flow/1", "id": "example-greeting", "title": "Greeting", "start": "name",
        "steps": [
            [
                "id": "name",
                "screen": [
                    "id": "name", "title": "Your name",
                    "root": [
                        "type": "vstack", "id": "root",
                        "children": [
                            [
                                "type": "textField", "id": "name",
                                "properties": [
                                    "fieldId": "name", "label": "Name",
                                    "validation": [["rule": "required", "message": "Tell us your name."]],
                                ],
                            ],
                            [
                                "type": "button", "id": "send",
                                "properties": ["title": "Send", "action": ["type": "submit"]],
                            ],
                        ],
                    ],
                ],
                "next": [],
            ]
        ],
    ]

    /// The example request body of `operation`, if it has one.
    static func requestBody(_ operation: ServiceOperation) -> JSONValue? {
        switch operation {
        case .createFlowVersion, .lintFlow: return flow
        case .previewFlow: return ["flow": flow, "step": "name", "core": "1.0.0", "answers": ["name": "Ada"]]
        default: return nil
        }
    }
}
