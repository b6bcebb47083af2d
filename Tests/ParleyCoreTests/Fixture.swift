import ParleyCore

/// Shared test documents (STYLE.md: fixtures as `Type.make(...)`).
enum Fixture {
    /// Parses JSON text; a fixture that doesn't parse is a broken test.
    static func json(_ text: String) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            fatalError("fixture is not JSON: \(error)")
        }
    }

    /// A flow that uses every component type, action type, rule kind and
    /// predicate operator of DESIGN.md, and lints clean.
    static let everyKindFlow = """
        { "schema": "parley.flow/1", "id": "kitchen-sink", "title": "Everything", "start": "first",
          "steps": [
            { "id": "first",
              "screen": { "id": "first", "title": "First",
                "root": { "type": "vstack", "id": "root", "properties": { "spacing": "m", "alignment": "leading" },
                  "children": [
                    { "type": "text", "id": "intro", "properties": { "text": "Hello", "style": "title", "size": "fill" } },
                    { "type": "image", "id": "logo",
                      "properties": { "url": "https://example.com/a.png", "aspectRatio": 1.5, "alt": "Logo", "size": { "weight": 2 } } },
                    { "type": "textField", "id": "name",
                      "properties": { "fieldId": "name", "label": "Name", "placeholder": "Ada",
                        "validation": [
                          { "rule": "required", "message": "Required." },
                          { "rule": "minLength", "value": 2, "message": "Too short." },
                          { "rule": "maxLength", "value": 40, "message": "Too long." },
                          { "rule": "pattern", "value": "[A-Za-z ]+", "message": "Letters only." } ] } },
                    { "type": "textField", "id": "name2",
                      "properties": { "fieldId": "nameAgain", "label": "Name again",
                        "validation": [ { "rule": "equalsField", "field": "name", "message": "Must match." } ] } },
                    { "type": "textField", "id": "email",
                      "properties": { "fieldId": "email", "label": "Email",
                        "validation": [ { "rule": "requiredIf", "when": { "field": "purpose", "equals": "work" },
                                          "message": "Needed for work." },
                                        { "rule": "email", "message": "Not an email." } ] } },
                    { "type": "textField", "id": "amount",
                      "properties": { "fieldId": "amount", "label": "Amount",
                        "validation": [ { "rule": "minimum", "value": 0 }, { "rule": "maximum", "value": "100.5" },
                                        { "rule": "exclusiveMinimum", "value": -1 }, { "rule": "exclusiveMaximum", "value": 1e3 },
                                        { "rule": "multipleOf", "value": 0.0001 }, { "rule": "integer" } ] } },
                    { "type": "picker", "id": "purpose",
                      "properties": { "fieldId": "purpose", "label": "Purpose", "options": ["work", "holiday"],
                        "validation": [ { "rule": "oneOf", "values": ["work", "holiday"], "message": "Pick one." } ] } },
                    { "type": "hstack", "id": "row", "children": [
                        { "type": "spacer", "id": "gap" }, { "type": "divider", "id": "line" } ] },
                    { "type": "quickReplies", "id": "mood", "properties": { "fieldId": "mood", "options": ["ok", "great"],
                        "validation": { "required": true, "message": "Choose." } } },
                    { "type": "card", "id": "card",
                      "properties": { "title": "Help", "subtitle": "Read more", "imageUrl": "https://example.com/c.png",
                        "action": { "type": "openUrl", "url": "https://example.com/help" } },
                      "children": [ { "type": "text", "id": "cardText", "properties": { "text": "Inside" } } ] },
                    { "type": "datePicker", "id": "born",
                      "properties": { "fieldId": "born", "label": "Born",
                        "validation": [ { "rule": "date", "min": "1900-01-01", "max": "2024-02-29" } ] } },
                    { "type": "toggle", "id": "agree", "properties": { "fieldId": "agree", "label": "I agree" } },
                    { "type": "carousel", "id": "slides",
                      "children": [ { "type": "text", "id": "slide1", "properties": { "text": "One" } } ],
                      "fallback": { "type": "vstack", "id": "slidesFallback",
                        "children": [ { "type": "text", "id": "slide1b", "properties": { "text": "One" } } ] } },
                    { "type": "grid", "id": "tiles", "children": [] },
                    { "type": "button", "id": "reorder",
                      "properties": { "title": "Reorder",
                        "action": { "type": "network",
                          "request": { "method": "POST", "path": "orders/reorder", "include": ["name", "amount"] },
                          "fallback": { "type": "subscribe", "channel": "orders", "fallback": { "type": "submit" } } } } },
                    { "type": "button", "id": "next", "properties": { "title": "Continue", "action": { "type": "submit" } } } ] } },
              "next": [
                { "when": { "all": [ { "field": "purpose", "in": ["work"] },
                                     { "not": { "field": "agree", "present": false } },
                                     { "any": [ { "field": "mood", "equals": "great" } ] } ] },
                  "goto": "work" },
                { "goto": "done" } ] },
            { "id": "work", "screen": { "schema": "parley.screen/1", "id": "work",
                "root": { "type": "textField", "id": "employer", "properties": { "fieldId": "employer", "label": "Employer" } } },
              "next": [ { "goto": "done" } ] },
            { "id": "done", "screen": { "id": "done", "root": { "type": "text", "id": "thanks", "properties": { "text": "Thanks" } } },
              "next": [] } ],
          "upgrade": { "id": "upgrade", "root": { "type": "text", "id": "please", "properties": { "text": "Please update the app." } } } }
        """

    /// A minimal clean flow whose first screen's root is `root` (JSON text).
    static func flow(root: String, extraSteps: String = "", next: String = "[]") -> String {
        """
        { "schema": "parley.flow/1", "id": "f", "start": "a",
          "steps": [ { "id": "a", "screen": { "id": "a", "root": \(root) }, "next": \(next) }\(extraSteps) ] }
        """
    }

    /// A clean flow whose single screen shows `nodes` (JSON text, comma-separated) in a vstack.
    static func flow(nodes: String) -> String {
        flow(root: #"{ "type": "vstack", "id": "root", "children": [ \#(nodes) ] }"#)
    }

    /// A clean screen document whose vstack root holds `nodes`.
    static func screen(nodes: String) -> String {
        """
        { "schema": "parley.screen/1", "id": "s", "root": { "type": "vstack", "id": "root", "children": [ \(nodes) ] } }
        """
    }
}
