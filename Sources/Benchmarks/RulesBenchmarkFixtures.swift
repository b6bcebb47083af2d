import ParleyCore

/// A 20-field screen with mixed rules and answers that pass most of them.
enum RulesBenchmarkFixtures {
    static let fields: [(String, String, String)] = [
        ("firstName", #"[{"rule":"required"},{"rule":"maxLength","value":50}]"#, "Ada"),
        (
            "lastName", #"[{"rule":"required"},{"rule":"minLength","value":2},{"rule":"maxLength","value":50}]"#,
            "Lovelace"
        ),
        ("email", #"[{"rule":"required"},{"rule":"email"}]"#, "ada@example.com"),
        ("emailConfirm", #"[{"rule":"equalsField","field":"email"}]"#, "ada@example.com"),
        ("country", #"[{"rule":"required"},{"rule":"pattern","value":"[A-Z]{2}"}]"#, "GB"),
        ("postcode", #"[{"rule":"pattern","value":"[A-Z0-9 ]{5,8}"}]"#, "SW1A 1AA"),
        ("age", #"[{"rule":"integer"},{"rule":"minimum","value":18},{"rule":"maximum","value":130}]"#, "36"),
        ("amount", #"[{"rule":"minimum","value":"0.01"},{"rule":"multipleOf","value":"0.01"}]"#, "19.99"),
        ("born", #"[{"rule":"date","min":"1900-01-01","max":"2025-12-31"}]"#, "1815-12-10"),
        ("purpose", #"[{"rule":"required"},{"rule":"oneOf","values":["work","study","travel"]}]"#, "work"),
        ("employer", #"[{"rule":"requiredIf","when":{"field":"purpose","equals":"work"}}]"#, "Analytical Engines"),
        ("phone", #"[{"rule":"pattern","value":"\\+?[0-9 ]{6,20}"}]"#, "+44 20 7946 0000"),
        ("iban", #"[{"rule":"pattern","value":"[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}"}]"#, "GB82WEST12345698765432"),
        (
            "nickname", #"[{"rule":"maxLength","value":20},{"rule":"pattern","value":"\\p{L}[\\p{L}\\p{Nd} ]*"}]"#,
            "Ada 1"
        ),
        ("notes", #"[{"rule":"maxLength","value":500}]"#, String(repeating: "Notes on the engine. ", count: 10)),
        ("weight", #"[{"rule":"exclusiveMinimum","value":0},{"rule":"exclusiveMaximum","value":500}]"#, "61.5"),
        ("children", #"[{"rule":"integer"},{"rule":"minimum","value":0}]"#, "3"),
        ("passport", #"[{"rule":"required"},{"rule":"pattern","value":"[A-Z0-9]{9}"}]"#, "123456789"),
        ("terms", #"[{"rule":"required"},{"rule":"oneOf","values":["yes"]}]"#, "yes"),
        ("referral", #"[{"rule":"minLength","value":4},{"rule":"pattern","value":"(ref|REF)-[0-9]+"}]"#, "ref-2024"),
    ]

    static var screen: String {
        let children = fields.enumerated().map { index, field in
            #"{"type":"textField","id":"n\#(index)","properties":{"fieldId":"\#(field.0)","validation":\#(field.1)}}"#
        }
        return #"{"schema":"parley.screen/1","id":"bench","root":{"type":"vstack","id":"root","children":["#
            + children.joined(separator: ",") + "]}}"
    }

    static var answers: Answers {
        var answers = Answers()
        for (field, _, value) in fields { answers[field] = value }
        return answers
    }
}
