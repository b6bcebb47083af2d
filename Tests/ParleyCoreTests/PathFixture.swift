import ParleyCore

/// A flow whose rules reach across steps, and valid walks through it (issue 11).
///
/// `email` → `purpose` → `employer` (purpose work) or `holiday` (anything else) → `confirm` → `done`.
/// `confirm` holds `emailAgain` (must equal `email`, two steps back) and `visa` (required when the
/// purpose was work); `done` is terminal.
enum PathFixture {
    static let flowJSON = """
        { "schema": "parley.flow/1", "id": "signup", "start": "email",
          "steps": [
            { "id": "email", "screen": { "id": "email", "root": { "type": "vstack", "id": "root", "children": [
                \(input("email", rules: #"{ "rule": "required" }, { "rule": "email" }"#)) ] } },
              "next": [ { "goto": "purpose" } ] },
            { "id": "purpose", "screen": { "id": "purpose", "root": { "type": "vstack", "id": "root", "children": [
                \(input("purpose", rules: #"{ "rule": "required" }, { "rule": "oneOf", "values": ["work", "holiday"] }"#)) ] } },
              "next": [ { "when": { "field": "purpose", "equals": "work" }, "goto": "employer" },
                        { "goto": "holiday" } ] },
            { "id": "employer", "screen": { "id": "employer", "root": { "type": "vstack", "id": "root", "children": [
                \(input("employer", rules: #"{ "rule": "required" }"#)) ] } },
              "next": [ { "goto": "confirm" } ] },
            { "id": "holiday", "screen": { "id": "holiday", "root": { "type": "vstack", "id": "root", "children": [
                \(input("destination", rules: #"{ "rule": "required" }"#)) ] } },
              "next": [ { "goto": "confirm" } ] },
            { "id": "confirm", "screen": { "id": "confirm", "root": { "type": "vstack", "id": "root", "children": [
                \(input("emailAgain", rules: #"{ "rule": "required" }, { "rule": "equalsField", "field": "email" }"#)),
                \(input("visa", rules: #"{ "rule": "requiredIf", "when": { "field": "purpose", "equals": "work" } }"#)) ] } },
              "next": [ { "goto": "done" } ] },
            { "id": "done", "screen": { "id": "done", "root": { "type": "text", "id": "thanks", "properties": { "text": "Thanks" } } },
              "next": [] } ] }
        """

    static func input(_ field: String, rules: String) -> String {
        #"{ "type": "textField", "id": "\#(field)", "properties": { "fieldId": "\#(field)", "validation": [ \#(rules) ] } }"#
    }

    static let flow: Flow = {
        do {
            return try Flow.decode(flowJSON)
        } catch {
            fatalError("PathFixture.flow does not decode: \(error)")
        }
    }()

    /// A random valid walk from `start` to `done`.
    static func walk(_ random: inout SplitMix64) -> [PathReplay.Entry] {
        let emails = ["a@example.com", "b@example.org", "\"q x\"@example.com", "z@[192.168.0.1]"]
        let email = emails[Int(random.next() % UInt64(emails.count))]
        let work = random.next() % 2 == 0
        var path: [PathReplay.Entry] = [
            ("email", ["email": email]), ("purpose", ["purpose": work ? "work" : "holiday"]),
        ]
        let text = "v\(random.next() % 1000)"
        path.append(work ? ("employer", ["employer": text]) : ("holiday", ["destination": text]))
        var confirm: Answers = ["emailAgain": email]
        if work || random.next() % 2 == 0 { confirm["visa"] = "V\(random.next() % 100)" }
        path.append(("confirm", confirm))
        path.append(("done", Answers()))
        return path
    }
}
