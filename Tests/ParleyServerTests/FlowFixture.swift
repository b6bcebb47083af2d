import Foundation
import ParleyCore

/// Flow documents the acceptance scenarios post (STYLE.md: fixtures as `Type.make(...)`).
enum FlowFixture {
    /// A fresh flow id, so parallel tests sharing one database never collide.
    static func uniqueId(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// Scenario 1: one step whose `quickReplies` (core 1.1) falls back to a `picker` for 1.0 cores.
    static func quickReplies(id: String, title: String = "Feedback") -> String {
        """
        { "schema": "parley.flow/1", "id": \(quoted(id)), "title": \(quoted(title)), "start": "welcome",
          "steps": [ { "id": "welcome", "screen": { "id": "welcome", "title": "How was it?",
            "root": { "type": "vstack", "id": "root", "children": [
              { "type": "text", "id": "intro", "properties": { "text": "Tell us how it went." } },
              \(moodNode),
              { "type": "button", "id": "send", "properties": { "title": "Send", "action": { "type": "submit" } } } ] } },
            "next": [] } ] }
        """
    }

    /// Scenario 2: v1 plus a 1.2-only `datePicker` without fallback, and the flow's `upgrade` screen.
    static func withDatePicker(id: String) -> String {
        """
        { "schema": "parley.flow/1", "id": \(quoted(id)), "title": "Feedback", "start": "welcome",
          "steps": [ { "id": "welcome", "screen": { "id": "welcome", "title": "How was it?",
            "root": { "type": "vstack", "id": "root", "children": [
              { "type": "text", "id": "intro", "properties": { "text": "Tell us how it went." } },
              \(moodNode),
              { "type": "datePicker", "id": "visited", "properties": { "fieldId": "visited", "label": "When?",
                "validation": [ { "rule": "date", "max": "2030-12-31" } ] } },
              { "type": "button", "id": "send", "properties": { "title": "Send", "action": { "type": "submit" } } } ] } },
            "next": [] } ],
          "upgrade": \(upgradeScreen) }
        """
    }

    /// Scenario 3: `details` validates an email twice (`equalsField` is a 1.2 rule, deferred for 1.0
    /// cores) and branches on `purpose`: work → `employer`, anything else → `done`.
    static func branching(id: String) -> String {
        """
        { "schema": "parley.flow/1", "id": \(quoted(id)), "title": "Contact", "start": "details",
          "steps": [
            { "id": "details", "screen": { "id": "details", "title": "Your details",
              "root": { "type": "vstack", "id": "root", "children": [
                { "type": "textField", "id": "email", "properties": { "fieldId": "email", "label": "Email",
                  "validation": [ { "rule": "required", "message": "Email is required." },
                                  { "rule": "email", "message": "That is not an email address." } ] } },
                { "type": "textField", "id": "emailAgain", "properties": { "fieldId": "emailAgain",
                  "label": "Email again",
                  "validation": [ { "rule": "equalsField", "field": "email", "message": "The emails differ." } ] } },
                { "type": "picker", "id": "purpose", "properties": { "fieldId": "purpose", "label": "Purpose",
                  "options": ["work", "holiday"],
                  "validation": [ { "rule": "required", "message": "Pick a purpose." },
                                  { "rule": "oneOf", "values": ["work", "holiday"] } ] } },
                { "type": "button", "id": "next", "properties": { "title": "Next", "action": { "type": "submit" } } }
              ] } },
              "next": [ { "when": { "field": "purpose", "equals": "work" }, "goto": "employer" }, { "goto": "done" } ] },
            { "id": "employer", "screen": { "id": "employer",
              "root": { "type": "vstack", "id": "root", "children": [
                { "type": "textField", "id": "employer", "properties": { "fieldId": "employer", "label": "Employer",
                  "validation": [ { "rule": "required" } ] } },
                { "type": "button", "id": "next", "properties": { "title": "Next", "action": { "type": "submit" } } }
              ] } },
              "next": [ { "goto": "done" } ] },
            { "id": "done", "screen": { "id": "done",
              "root": { "type": "text", "id": "thanks", "properties": { "text": "Thanks!" } } },
              "next": [] } ],
          "upgrade": \(upgradeScreen) }
        """
    }

    /// A one-step flow with a free-text field and no rules (answers are stored as sent).
    static func freeText(id: String, title: String) -> String {
        """
        { "schema": "parley.flow/1", "id": \(quoted(id)), "title": \(quoted(title)), "start": "note",
          "steps": [ { "id": "note", "screen": { "id": "note",
            "root": { "type": "vstack", "id": "root", "children": [
              { "type": "textField", "id": "note", "properties": { "fieldId": "note", "label": "Note" } },
              { "type": "button", "id": "send", "properties": { "title": "Send", "action": { "type": "submit" } } } ] } },
            "next": [] } ] }
        """
    }

    /// The decoded flow, for computing what the server must answer.
    static func flow(_ text: String) throws -> Flow {
        try Flow(json: JSONParser.parse(text), at: .root)
    }

    private static let moodNode = """
        { "type": "quickReplies", "id": "mood", "properties": { "fieldId": "mood", "options": ["ok", "great"],
            "validation": [ { "rule": "required", "message": "Choose one." } ] },
          "fallback": { "type": "picker", "id": "moodPicker", "properties": { "fieldId": "mood", "label": "Mood",
            "options": ["ok", "great"] } } }
        """

    private static let upgradeScreen = """
        { "id": "upgrade", "root": { "type": "text", "id": "please", "properties": { "text": "Please update the app." } } }
        """

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: CanonicalJSON.encode(.string(text)), as: UTF8.self)
    }
}
